package io.chronix.solr.query;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;

/**
 * One series' fields, sorted by field name: a row of the series listing ({@link FieldValues#series},
 * a text a field) and a joined series' fields as the engine reads them in the process ({@link
 * SeriesFields#view}). An immutable map over two arrays: the listing hashes and compares every
 * matching record's row to find the distinct series, and a tree map a row made that a third of
 * listing a thousand series. Equal to any map of the same entries, and hashed as maps are.
 */
final class SeriesFieldRow<V> extends AbstractMap<String, V> {

  private final String[] names;
  private final V[] values;
  /**
   * Made when first asked (the listing hashes every row, the engine's view is never hashed), as
   * String keeps its own: one field, so a racing reader sees 0 and makes it again.
   */
  private int hash;

  /** @param names sorted, without repeats; rows of one read share the array where they can */
  SeriesFieldRow(String[] names, V[] values) {
    this.names = names;
    this.values = values;
  }

  static SeriesFieldRow<String> of(SortedMap<String, String> fields) {
    return new SeriesFieldRow<>(fields.keySet().toArray(new String[0]), fields.values().toArray(new String[0]));
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public V get(Object key) {
    int index = key instanceof String name ? Arrays.binarySearch(names, name) : -1;
    return index >= 0 ? values[index] : null;
  }

  @Override
  public boolean containsKey(Object key) {
    return key instanceof String name && Arrays.binarySearch(names, name) >= 0;
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

  @Override
  public boolean equals(Object other) {
    if (other instanceof SeriesFieldRow<?> row) {
      return hashCode() == row.hashCode() && Arrays.equals(names, row.names) && Arrays.equals(values, row.values);
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
            Map.Entry<String, V> entry = new SimpleImmutableEntry<>(names[next], values[next]);
            next++;
            return entry;
          }
        };
      }
    };
  }
}
