package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.ByNames;
import io.chronix.core.series.SeriesKey;

/**
 * The value of one series field (the name, the type or an attribute) in keys, an attribute's place
 * among a key's names found once a name list ({@link ByNames}). A listing of a label's
 * values asks it of every buffered series; a binary search of each key's names was a sixth of that
 * listing with 10,000 series buffered. One instance serves one request's thread.
 */
final class KeyFieldValue {

  private final String field;
  private final boolean keyField;
  private final ByNames<AttributeMap, Integer> place;

  KeyFieldValue(String field) {
    this.field = field;
    this.keyField = field.equals(RecordFields.NAME) || field.equals(RecordFields.TYPE);
    this.place = new ByNames<>(attributes -> attributes.indexOf(field));
  }

  /** The key's value of the field, null where it has none. */
  String of(SeriesKey key) {
    if (keyField) {
      return RecordFields.valueOf(key, field);
    }
    int at = place.apply(key.attributes(), 0);
    return at < 0 ? null : key.attributes().value(at);
  }

  /** Whether keys with this key's name and attribute names have a value of the field. */
  boolean present(SeriesKey key) {
    return keyField || place.apply(key.attributes(), 0) >= 0;
  }
}
