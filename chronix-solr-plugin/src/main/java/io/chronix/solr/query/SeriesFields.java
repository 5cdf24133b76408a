package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;

/**
 * The descriptive fields of a joined series (name, type, attributes), each with the distinct
 * values of the records joined into it.
 */
public final class SeriesFields {

  private final SortedMap<String, SortedSet<String>> values = new TreeMap<>();

  public void addAll(Document document) {
    for (IndexableField field : document.getFields()) {
      String name = field.name();
      if (name.equals(RecordFields.NAME) || name.equals(RecordFields.TYPE) || RecordFields.isAttribute(name)) {
        add(name, text(field));
      }
    }
  }

  public void add(String field, String value) {
    values.computeIfAbsent(field, k -> new TreeSet<>()).add(value);
  }

  public void addAll(SeriesFields other) {
    for (Map.Entry<String, SortedSet<String>> entry : other.values.entrySet()) {
      values.computeIfAbsent(entry.getKey(), k -> new TreeSet<>()).addAll(entry.getValue());
    }
  }

  public SortedMap<String, SortedSet<String>> values() {
    return values;
  }

  /** The value type of the series: its type, or the first of several joined ones. */
  public String type() {
    SortedSet<String> types = values.get(RecordFields.TYPE);
    return types == null || types.isEmpty() ? "" : types.first();
  }

  static String text(IndexableField field) {
    return field.numericValue() != null ? field.numericValue().toString() : field.stringValue();
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
