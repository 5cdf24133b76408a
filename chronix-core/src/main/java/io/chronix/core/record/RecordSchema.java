package io.chronix.core.record;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The stored record, in one place for the server and the Solr plugin: which fields a record has,
 * the values a record gives them, its id and how the id is read back (docs/formats.md, record).
 * The Solr schema in conf/ declares the same fields; field names are in {@link RecordFields}.
 *
 * <p>Record id: {@code <routing id>!<series id>-<start hex>-<end hex>-<count hex>-<crc hex>}. The
 * routing id (name and type) sends every record of a name and type to one shard under Solr's
 * compositeId router; the series id names the series; the rest makes the id the same whenever the
 * same chunk is written again, so a retried write replaces instead of duplicating.
 */
public final class RecordSchema {

  /** Ends the id of the pseudo-record a buffered series is matched as; no stored id ends so. */
  private static final String BUFFERED_SUFFIX = "-buffered";

  private RecordSchema() {}

  public static String id(Record record) {
    CRC32 crc = new CRC32();
    crc.update(record.data());
    return seriesPrefix(record.key())
        + Long.toHexString(record.start())
        + '-'
        + Long.toHexString(record.end())
        + '-'
        + Long.toHexString(record.stats().count())
        + '-'
        + Long.toHexString(crc.getValue());
  }

  /** What every record id of the series starts with: {@code <routing id>!<series id>-}. */
  public static String seriesPrefix(SeriesKey key) {
    return seriesId(key) + '-';
  }

  /** {@code <routing id>!<series id>}: the series part of its records' ids. */
  public static String seriesId(SeriesKey key) {
    return key.routingId() + '!' + key.id();
  }

  /** The series part of a record id (also of a buffered pseudo-record's id). */
  public static String seriesIdOf(String recordId) {
    int bang = recordId.indexOf('!');
    int dash = recordId.indexOf('-', bang + 1);
    return dash < 0 ? recordId : recordId.substring(0, dash);
  }

  /** The id a buffered series is matched under as if it were a record. */
  public static String bufferedId(SeriesKey key) {
    return seriesId(key) + BUFFERED_SUFFIX;
  }

  /**
   * The field values of a stored record, in schema order.
   *
   * @param writeOrder orders the records of a series by when they were written: where two hold
   *     the same timestamp, the higher one wins ({@link RecordFields#WRITE_ORDER})
   */
  public static Map<String, Object> fields(Record record, long writeOrder) {
    Map<String, Object> fields = describe(id(record), record.key(), record.start(), record.end(), record.stats());
    fields.put(RecordFields.DATA, record.data());
    fields.put(RecordFields.WRITE_ORDER, writeOrder);
    return fields;
  }

  /**
   * The fields a record of exactly these (sorted) points would have, without blob and write
   * order: what a query matches a buffered series against.
   */
  public static Map<String, Object> bufferedFields(SeriesKey key, Points sorted) {
    return describe(bufferedId(key), key, sorted.timestamp(0), sorted.timestamp(sorted.size() - 1),
        RecordStats.of(sorted));
  }

  /**
   * The fields {@link #bufferedFields} gives besides the series' attributes; with the blob, what a
   * buffered series' record holds where a schema asks which fields a record has.
   */
  public static final Set<String> BUFFERED_FIELDS = Set.of(RecordFields.ID, RecordFields.NAME, RecordFields.TYPE,
      RecordFields.START, RecordFields.END, RecordFields.COUNT, RecordFields.MIN, RecordFields.MAX, RecordFields.SUM,
      RecordFields.FIRST, RecordFields.LAST);

  /**
   * The fields of a series' record that its key and the span of its points give: name, type,
   * start, end and its attributes, no id and no statistics. A listing of buffered series matches
   * them without reading points.
   */
  public static Map<String, Object> spanFields(SeriesKey key, long startNanos, long endNanos) {
    Map<String, Object> fields = new HashMap<>(key.attributes());
    fields.put(RecordFields.NAME, key.name());
    fields.put(RecordFields.TYPE, key.type());
    fields.put(RecordFields.START, RecordFields.nanosToMillis(startNanos));
    fields.put(RecordFields.END, RecordFields.nanosToMillis(endNanos));
    return fields;
  }

  /** Whether {@link #spanFields} gives the field where the series has it. */
  public static boolean isSpanField(String field) {
    return field.equals(RecordFields.NAME) || field.equals(RecordFields.TYPE) || field.equals(RecordFields.START)
        || field.equals(RecordFields.END) || RecordFields.isAttribute(field);
  }

  private static Map<String, Object> describe(String id, SeriesKey key, long startNanos, long endNanos,
      RecordStats stats) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(RecordFields.ID, id);
    fields.put(RecordFields.NAME, key.name());
    fields.put(RecordFields.TYPE, key.type());
    fields.put(RecordFields.START, RecordFields.nanosToMillis(startNanos));
    fields.put(RecordFields.END, RecordFields.nanosToMillis(endNanos));
    fields.put(RecordFields.COUNT, stats.count());
    fields.put(RecordFields.MIN, stats.min());
    fields.put(RecordFields.MAX, stats.max());
    fields.put(RecordFields.SUM, stats.sum());
    fields.put(RecordFields.FIRST, stats.first());
    fields.put(RecordFields.LAST, stats.last());
    fields.putAll(key.attributes());
    return fields;
  }

  /** The series a stored record belongs to, from its field values: name, type and attributes. */
  public static SeriesKey keyOf(Map<String, ?> fields) {
    Map<String, String> attributes = new TreeMap<>();
    for (Map.Entry<String, ?> field : fields.entrySet()) {
      if (RecordFields.isAttribute(field.getKey())) {
        attributes.put(field.getKey(), String.valueOf(field.getValue()));
      }
    }
    return new SeriesKey(String.valueOf(fields.get(RecordFields.NAME)), String.valueOf(fields.get(RecordFields.TYPE)),
        attributes);
  }

  /**
   * The write order of a record read back: its own field, else Solr's {@code _version_} (records
   * written before the field existed; both count on the same clock), else the fallback.
   */
  public static long writeOrder(Number writeOrder, Number solrVersion, long fallback) {
    if (writeOrder != null) {
      return writeOrder.longValue();
    }
    return solrVersion != null ? solrVersion.longValue() : fallback;
  }
}
