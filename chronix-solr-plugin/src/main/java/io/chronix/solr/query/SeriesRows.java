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
    add(new Row(row));
  }

  /** Adds a row hashed already (a segment's kept row, {@link RecordSeriesRows}). */
  void add(Row row) {
    rows.putIfAbsent(row, row.fields());
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

  /**
   * A row as a key: its ordered hash, equal to a row with the same fields and to the {@link KeyRow}
   * of its series. Rows of one series from two segments are found equal entry by entry
   * ({@link SortedArrayMap#sameEntries}): comparing them as maps made each new row's Map hash as
   * well, most of a live listing's row lookups (docs/benchmarks.md).
   */
  static final class Row {
    private final SortedArrayMap<String> fields;
    private final int hash;

    Row(SortedArrayMap<String> fields) {
      this.fields = fields;
      this.hash = fields.orderedHashCode();
    }

    SortedArrayMap<String> fields() {
      return fields;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Row row && hash == row.hash && fields.sameEntries(row.fields);
    }
  }
}
