package io.chronix.solr.query;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SortedArrayMap;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The distinct series of a listing as rows of their fields by name (name, type, attributes; one
 * value each), hashed over the fields in order ({@link SortedArrayMap#orderedHashCode}). As maps in
 * a hash set they shared hashes by the hundred (a map's hash is a sum over its entries), and
 * looking up a thousand buffered series among a thousand rows compared each with five rows.
 */
final class SeriesRows {

  private final Map<Object, SortedArrayMap<String>> rows = new HashMap<>();

  void add(SortedArrayMap<String> row) {
    rows.putIfAbsent(new Row(row), row);
  }

  void addAll(Collection<SortedArrayMap<String>> more) {
    for (SortedArrayMap<String> row : more) {
      add(row);
    }
  }

  /** Whether the key's row is among the rows. */
  boolean contains(SeriesKey key) {
    KeyRow probe = KeyRow.of(key);
    return rows.containsKey(probe != null ? probe : new Row(SeriesFields.of(key).firstValues()));
  }

  Collection<SortedArrayMap<String>> rows() {
    return rows.values();
  }

  /** A row as a key: its ordered hash, equal to a row with the same fields and to the {@link KeyRow} of its series. */
  record Row(SortedArrayMap<String> fields) {
    @Override
    public int hashCode() {
      return fields.orderedHashCode();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Row row && fields.equals(row.fields);
    }
  }
}
