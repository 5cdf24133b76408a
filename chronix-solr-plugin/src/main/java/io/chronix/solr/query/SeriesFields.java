package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SortedArrayMap;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;

/**
 * The descriptive fields of a joined series (name, type, attributes), each with the distinct
 * values of the records joined into it. On two arrays sorted by field name, a field's value a
 * string until a second distinct one comes: nearly every series has one value a field, and a tree
 * map of tree sets a series was a seventh of a {@code topk} over 10,000 series.
 */
public final class SeriesFields {

  private String[] names = new String[8];
  /** A field's one value as a String, or its values as a SortedSet once there are several. */
  private Object[] values = new Object[8];
  private int size;

  /** A series' fields as its key gives them. */
  public static SeriesFields of(SeriesKey key) {
    SeriesFields fields = new SeriesFields();
    fields.add(RecordFields.NAME, key.name());
    fields.add(RecordFields.TYPE, key.type());
    key.attributes().forEach(fields::add);
    return fields;
  }

  public void addAll(Document document) {
    for (IndexableField field : document.getFields()) {
      String name = field.name();
      if (RecordFields.isSeriesField(name)) {
        add(name, text(field));
      }
    }
  }

  public void add(String field, String value) {
    int at = Arrays.binarySearch(names, 0, size, field);
    if (at < 0) {
      insert(-at - 1, field, value);
      return;
    }
    Object present = values[at];
    if (present instanceof String one) {
      if (!one.equals(value)) {
        SortedSet<String> several = new TreeSet<>();
        several.add(one);
        several.add(value);
        values[at] = several;
      }
    } else {
      setOf(present).add(value);
    }
  }

  public void addAll(SeriesFields other) {
    if (size == 0) { // a series' first record: its fields as they are, its sets copied (the other's stay its own)
      if (names.length < other.size) {
        names = new String[other.size];
        values = new Object[other.size];
      }
      System.arraycopy(other.names, 0, names, 0, other.size);
      for (int i = 0; i < other.size; i++) {
        values[i] = other.values[i] instanceof String ? other.values[i] : new TreeSet<>(setOf(other.values[i]));
      }
      size = other.size;
      return;
    }
    for (int i = 0; i < other.size; i++) {
      if (other.values[i] instanceof String one) {
        add(other.names[i], one);
      } else {
        for (String value : setOf(other.values[i])) {
          add(other.names[i], value);
        }
      }
    }
  }

  /** The fields' names, sorted (a view). */
  public List<String> names() {
    return Arrays.asList(names).subList(0, size);
  }

  /** A copy: each field with its distinct values, sorted. */
  public SortedMap<String, SortedSet<String>> values() {
    SortedMap<String, SortedSet<String>> copy = new TreeMap<>();
    for (int i = 0; i < size; i++) {
      copy.put(names[i], new TreeSet<>(valuesAt(i)));
    }
    return copy;
  }

  /**
   * The fields as a read-only map, without a tree map of tree sets: a field's value, or its values
   * in order where there are several (a SortedSet). For callers in the process.
   */
  public Map<String, Object> view() {
    Object[] shown = new Object[size];
    for (int i = 0; i < size; i++) {
      shown[i] = values[i] instanceof String ? values[i] : java.util.Collections.unmodifiableSortedSet(setOf(values[i]));
    }
    return new SortedArrayMap<>(Arrays.copyOf(names, size), shown);
  }

  /** Each field with one value (a record has one; a joined series shows its first): a row of the series listing. */
  public SortedArrayMap<String> firstValues() {
    String[] first = new String[size];
    for (int i = 0; i < size; i++) {
      first[i] = firstAt(i);
    }
    return new SortedArrayMap<>(Arrays.copyOf(names, size), first);
  }

  /** The field's value, the first in order where it has several; null where the series lacks it. */
  public String first(String field) {
    int at = Arrays.binarySearch(names, 0, size, field);
    if (at < 0) {
      return null;
    }
    return firstAt(at);
  }

  /** The field's values in order, empty where the series lacks it. */
  public SortedSet<String> valuesOf(String field) {
    int at = Arrays.binarySearch(names, 0, size, field);
    return at < 0 ? new TreeSet<>() : valuesAt(at);
  }

  /** Whether the series has a value type and every one of its types is among {@code allowed}. */
  public boolean typesWithin(Set<String> allowed) {
    int at = Arrays.binarySearch(names, 0, size, RecordFields.TYPE);
    if (at < 0) {
      return false;
    }
    return values[at] instanceof String one ? allowed.contains(one) : allowed.containsAll(setOf(values[at]));
  }

  /** The value type of the series: its type, or the first of several joined ones. */
  public String type() {
    int at = Arrays.binarySearch(names, 0, size, RecordFields.TYPE);
    if (at < 0) {
      return "";
    }
    return firstAt(at);
  }

  static String text(IndexableField field) {
    return field.numericValue() != null ? field.numericValue().toString() : field.stringValue();
  }

  private SortedSet<String> valuesAt(int index) {
    return java.util.Collections.unmodifiableSortedSet(
        values[index] instanceof String one ? new TreeSet<>(Set.of(one)) : setOf(values[index]));
  }

  private void insert(int at, String field, String value) {
    if (size == names.length) {
      names = Arrays.copyOf(names, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    System.arraycopy(names, at, names, at + 1, size - at);
    System.arraycopy(values, at, values, at + 1, size - at);
    names[at] = field;
    values[at] = value;
    size++;
  }

  /** Field {@code index}'s value, the first in order where it has several. */
  private String firstAt(int index) {
    return values[index] instanceof String one ? one : setOf(values[index]).first();
  }

  @SuppressWarnings("unchecked") // only SortedSet<String> is stored besides String
  private static SortedSet<String> setOf(Object values) {
    return (SortedSet<String>) values;
  }

  @Override
  public String toString() {
    return values().toString();
  }
}
