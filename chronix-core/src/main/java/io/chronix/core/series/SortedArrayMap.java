package io.chronix.core.series;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable map over two arrays, names sorted without repeats and their values: a series key's
 * attributes ({@link AttributeMap}), a row of the series listing, a joined series' fields as the
 * query engine reads them. A tree map for each took a third of listing a thousand series, and
 * 360 of the 1,160 heap bytes of a new series of the 10,000-series stream (docs/benchmarks.md).
 * Equal to any map of the same entries, and hashed as maps are.
 *
 * @param <V> the values' type
 */
public class SortedArrayMap<V> extends AbstractMap<String, V> {

  /** {@link #orderedHashCode} of no entries, where a hash of entries given one by one starts. */
  public static final int ORDERED_HASH_START = 1;

  final String[] names;
  final V[] values;
  /**
   * Made when first asked (a listing hashes every row, a key's attributes are hashed as part of
   * the key's own hash), as String keeps its own: one field, so a racing reader sees 0 and makes
   * it again.
   */
  private int hash;

  /**
   * @param names sorted, without repeats; maps may share the array, which none of them changes
   * @param values the value of each name, none null; the map keeps the array as it is
   */
  public SortedArrayMap(String[] names, V[] values) {
    if (names.length != values.length) {
      throw new IllegalArgumentException(names.length + " names for " + values.length + " values");
    }
    this.names = names;
    this.values = values;
  }

  /** The name at {@code index} in name order: a loop over these spares an iterator and its entries. */
  public String name(int index) {
    return names[index];
  }

  /** The value at {@code index} in name order. */
  public V value(int index) {
    return values[index];
  }

  /**
   * Whether {@code other} has the same names, whatever their values: keys with the same names go
   * together where a question depends on the names alone (the listings over buffered series), and
   * a listing's rows of one layout get their labels the same way. Names are mostly shared
   * instances (the process' words, a listing's one names array), so this mostly compares
   * references.
   */
  public boolean sameNames(SortedArrayMap<?> other) {
    return names == other.names || Arrays.equals(names, other.names);
  }

  /** A hash of the names alone, equal for maps with {@link #sameNames}. */
  public int namesHashCode() {
    return Arrays.hashCode(names);
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public boolean isEmpty() {
    return names.length == 0;
  }

  /** The name's place among the names, negative where it is none of them. */
  public int indexOf(Object name) {
    return name instanceof String ? Arrays.binarySearch(names, name) : -1;
  }

  @Override
  public V get(Object name) {
    int at = indexOf(name);
    return at >= 0 ? values[at] : null;
  }

  @Override
  public boolean containsKey(Object name) {
    return indexOf(name) >= 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super V> action) {
    for (int i = 0; i < names.length; i++) {
      action.accept(names[i], values[i]);
    }
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      for (int i = 0; i < names.length; i++) {
        h += names[i].hashCode() ^ values[i].hashCode();
      }
      hash = h;
    }
    return h;
  }

  /**
   * A hash over the names and values in order ({@code 31 * h + hash} for each): for sets of maps
   * that only one another's kind meets. {@link #hashCode()} must be a Map's, a sum over entries,
   * which maps that differ in two values in step share: the rows of 1,000 hosts in 10 data
   * centres had 201 distinct such hashes.
   */
  public int orderedHashCode() {
    int h = ORDERED_HASH_START;
    for (int i = 0; i < names.length; i++) {
      h = orderedHashStep(h, names[i], values[i]);
    }
    return h;
  }

  /**
   * {@link #orderedHashCode} after one more entry: for a hash of entries that are not held in one
   * map ({@link SeriesKey#recordFieldsHash}), which must come out as the map's.
   */
  public static int orderedHashStep(int h, String name, Object value) {
    return 31 * (31 * h + name.hashCode()) + value.hashCode();
  }

  /**
   * Whether the other map has the same names and values, in the same order: {@link #equals} without
   * the Map hashes it compares first (a sum over the entries, made once a map), for maps already
   * found by a hash of their own. A String the two share is not compared character by character.
   */
  public boolean sameEntries(SortedArrayMap<?> other) {
    if (other.names.length != names.length) {
      return false;
    }
    boolean sameNames = other.names == names;
    for (int i = 0; i < names.length; i++) {
      if (!sameNames && names[i] != other.names[i] && !names[i].equals(other.names[i])) {
        return false;
      }
      Object value = values[i];
      Object otherValue = other.values[i];
      if (value != otherValue && !value.equals(otherValue)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object other) {
    if (other instanceof SortedArrayMap<?>) {
      SortedArrayMap<?> that = (SortedArrayMap<?>) other;
      return hashCode() == that.hashCode() && sameEntries(that);
    }
    return super.equals(other);
  }

  @Override
  public Set<Map.Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return names.length;
      }

      @Override
      public Iterator<Map.Entry<String, V>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < names.length;
          }

          @Override
          public Map.Entry<String, V> next() {
            if (next >= names.length) {
              throw new NoSuchElementException();
            }
            int at = next++;
            return new SimpleImmutableEntry<>(names[at], values[at]);
          }
        };
      }
    };
  }
}
