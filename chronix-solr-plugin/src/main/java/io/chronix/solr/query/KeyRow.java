package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.KeptRow;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SortedArrayMap;

/**
 * A buffered series' key looked up among a series listing's rows ({@link SeriesRows}: each a
 * {@link SortedArrayMap} of name, type and attributes by field name) without making its row: the
 * same hash as that row's, and equal to it. A live listing of 1,000 series made each key's fields and row for the
 * lookup and compared rows as maps: a third of its time went with that (docs/benchmarks.md).
 * Only for lookups: it is no map, and no row equals it.
 */
final class KeyRow {

  private final SeriesKey key;

  private KeyRow(SeriesKey key) {
    this.key = key;
  }

  /** The probe for the key, or null where its attributes use a name or type field's name (make its row then). */
  static KeyRow of(SeriesKey key) {
    AttributeMap attributes = key.attributes();
    return attributes.containsKey(RecordFields.NAME) || attributes.containsKey(RecordFields.TYPE) ? null
        : new KeyRow(key);
  }

  /** As {@link SortedArrayMap#orderedHashCode()} of the key's row ({@link SeriesKey#recordFieldsHash}, kept by the key). */
  @Override
  public int hashCode() {
    return key.recordFieldsHash();
  }

  /**
   * Whether {@code other} is the key's row: its fields in name order are the key's name, type and
   * attributes. A segment's kept row found so keeps the key's id bits, and is found by them after.
   */
  @Override
  public boolean equals(Object other) {
    if (!(other instanceof SeriesRows.Row wrapped)) {
      return false;
    }
    SortedArrayMap<String> row = wrapped.fields();
    if (!(row instanceof KeptRow kept)) {
      return isRow(row);
    }
    if (kept.isRowOf(key.idBits())) {
      return true;
    }
    if (isRow(kept)) {
      kept.keepSeriesOf(key);
      return true;
    }
    return false;
  }

  private boolean isRow(SortedArrayMap<String> row) {
    AttributeMap attributes = key.attributes();
    if (row.size() != attributes.size() + 2) {
      return false;
    }
    int attribute = 0;
    for (int i = 0; i < row.size(); i++) {
      String field = row.name(i);
      Object value = row.value(i);
      if (field.equals(RecordFields.NAME)) {
        if (!key.name().equals(value)) {
          return false;
        }
      } else if (field.equals(RecordFields.TYPE)) {
        if (!key.type().equals(value)) {
          return false;
        }
      } else if (attribute == attributes.size() || !field.equals(attributes.name(attribute))
          || !attributes.value(attribute++).equals(value)) {
        return false;
      }
    }
    return true;
  }
}
