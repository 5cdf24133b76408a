package io.chronix.core.series;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.BiConsumer;

/**
 * A series key's attributes: an immutable map sorted by name, held in two arrays. Every buffered
 * series keeps one, and a tree map with its unmodifiable wrapper and their cached views took 360
 * of the 1,160 bytes a new series of the 10,000-series stream held on the heap; making it (a tree
 * insertion a name) and walking it entry by entry for the memory budget, the log's key encoding
 * and the hash were a quarter of creating a series (docs/benchmarks.md, "New series").
 *
 * <p>Names are the process' shared instances ({@link SeriesWords}). Neither names nor values may
 * be null. Equal to any map of the same entries, with the same hash code, as {@link Map} asks.
 */
public final class AttributeMap extends AbstractMap<String, String> implements SortedMap<String, String> {

  public static final AttributeMap EMPTY = new AttributeMap(new String[0], new String[0]);

  private final String[] names;
  private final String[] values;

  private AttributeMap(String[] names, String[] values) {
    this.names = names;
    this.values = values;
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

  /** The name of the attribute at {@code index} in name order. */
  public String name(int index) {
    return names[index];
  }

  /** The value of the attribute at {@code index} in name order. */
  public String value(int index) {
    return values[index];
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public boolean isEmpty() {
    return names.length == 0;
  }

  private int indexOf(Object name) {
    return name instanceof String ? Arrays.binarySearch(names, name) : -1;
  }

  @Override
  public String get(Object name) {
    int at = indexOf(name);
    return at >= 0 ? values[at] : null;
  }

  @Override
  public boolean containsKey(Object name) {
    return indexOf(name) >= 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super String> action) {
    for (int i = 0; i < names.length; i++) {
      action.accept(names[i], values[i]);
    }
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < names.length;
          }

          @Override
          public Map.Entry<String, String> next() {
            if (next >= names.length) {
              throw new NoSuchElementException();
            }
            int at = next++;
            return new AbstractMap.SimpleImmutableEntry<>(names[at], values[at]);
          }
        };
      }

      @Override
      public int size() {
        return names.length;
      }
    };
  }

  @Override
  public boolean equals(Object other) {
    if (other instanceof AttributeMap) {
      AttributeMap that = (AttributeMap) other;
      return Arrays.equals(names, that.names) && Arrays.equals(values, that.values);
    }
    return super.equals(other);
  }

  @Override
  public int hashCode() {
    int hash = 0;
    for (int i = 0; i < names.length; i++) {
      hash += names[i].hashCode() ^ values[i].hashCode();
    }
    return hash;
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
