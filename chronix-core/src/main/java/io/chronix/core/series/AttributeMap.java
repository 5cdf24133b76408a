package io.chronix.core.series;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SortedMap;

/**
 * A series key's attributes, sorted by name in two arrays ({@link SortedArrayMap}), and a sorted
 * map as a key's callers read it. Every buffered series keeps one; making a tree map (an insertion
 * a name) and walking it entry by entry for the memory budget, the log's key encoding and the hash
 * were a quarter of creating a series (docs/benchmarks.md, "New series").
 *
 * <p>Names are the process' shared instances ({@link SeriesWords}). Neither names nor values may
 * be null.
 */
public final class AttributeMap extends SortedArrayMap<String> implements SortedMap<String, String> {

  public static final AttributeMap EMPTY = new AttributeMap(new String[0], new String[0]);

  private AttributeMap(String[] names, String[] values) {
    super(names, values);
  }

  /** The attributes of {@code attributes}, sorted by name; an attribute map is returned as it is. */
  public static AttributeMap of(Map<String, String> attributes) {
    if (attributes instanceof AttributeMap) {
      return (AttributeMap) attributes;
    }
    int size = attributes.size();
    if (size == 0) {
      return EMPTY;
    }
    String[] names = new String[size];
    String[] values = new String[size];
    int count = 0;
    for (Map.Entry<String, String> attribute : attributes.entrySet()) {
      String name = SeriesWords.shared(Objects.requireNonNull(attribute.getKey(), "attribute name"));
      String value = Objects.requireNonNull(attribute.getValue(), () -> "value of attribute " + name);
      // insertion sort: a key has a handful of attributes, and a sorted map's arrive in order
      int at = count;
      while (at > 0 && names[at - 1].compareTo(name) > 0) {
        names[at] = names[at - 1];
        values[at] = values[at - 1];
        at--;
      }
      names[at] = name;
      values[at] = value;
      count++;
    }
    if (count != size) { // a map whose size changed while it was read
      throw new java.util.ConcurrentModificationException("attributes changed while a series key was made");
    }
    return new AttributeMap(names, values);
  }

  /**
   * These attributes and one more, or with a new value for {@code name}: for keys that share all
   * but one attribute (a line's fields, which differ in the field), without sorting the rest again.
   */
  public AttributeMap with(String name, String value) {
    String shared = SeriesWords.shared(Objects.requireNonNull(name, "attribute name"));
    Objects.requireNonNull(value, () -> "value of attribute " + shared);
    int at = Arrays.binarySearch(names, shared);
    if (at >= 0) { // the names stay as they are
      String[] changed = values.clone();
      changed[at] = value;
      return new AttributeMap(names, changed);
    }
    int insert = -at - 1;
    String[] moreNames = new String[names.length + 1];
    String[] moreValues = new String[names.length + 1];
    System.arraycopy(names, 0, moreNames, 0, insert);
    System.arraycopy(values, 0, moreValues, 0, insert);
    moreNames[insert] = shared;
    moreValues[insert] = value;
    System.arraycopy(names, insert, moreNames, insert + 1, names.length - insert);
    System.arraycopy(values, insert, moreValues, insert + 1, names.length - insert);
    return new AttributeMap(moreNames, moreValues);
  }

  @Override
  public Comparator<? super String> comparator() {
    return null; // natural order
  }

  @Override
  public String firstKey() {
    if (names.length == 0) {
      throw new NoSuchElementException();
    }
    return names[0];
  }

  @Override
  public String lastKey() {
    if (names.length == 0) {
      throw new NoSuchElementException();
    }
    return names[names.length - 1];
  }

  @Override
  public SortedMap<String, String> subMap(String fromName, String toName) {
    if (fromName.compareTo(toName) > 0) {
      throw new IllegalArgumentException("fromKey > toKey");
    }
    return slice(insertionPoint(fromName), insertionPoint(toName));
  }

  @Override
  public SortedMap<String, String> headMap(String toName) {
    return slice(0, insertionPoint(toName));
  }

  @Override
  public SortedMap<String, String> tailMap(String fromName) {
    return slice(insertionPoint(fromName), names.length);
  }

  /** The index of the first name at or after {@code name}. */
  private int insertionPoint(String name) {
    int at = Arrays.binarySearch(names, Objects.requireNonNull(name));
    return at >= 0 ? at : -at - 1;
  }

  /** A copy, not a view as a tree map's: the map never changes, so nothing tells the two apart. */
  private AttributeMap slice(int from, int to) {
    return from == 0 && to == names.length ? this
        : new AttributeMap(Arrays.copyOfRange(names, from, to), Arrays.copyOfRange(values, from, to));
  }
}
