package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.record.RecordStats;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

/**
 * A record as a series query takes it: its id, span, point count, statistics, blob and series
 * fields, picked out of its stored fields once. The {@link RecordCache} keeps these, so a record a
 * dashboard asks again at every refresh is not picked apart again: from a cached Lucene document,
 * finding a dozen fields by name, copying the series fields and reading the statistics was 13 % of
 * a {@code rate} over 1,000 counters, on the request's thread before any decoding (docs/benchmarks.md).
 *
 * <p>Shared between requests: nothing in it is changed after it is made.
 */
final class ReadRecord {

  /** A cached record's bytes besides its fields' values: the objects, the field names. */
  private static final int OVERHEAD = 128;
  private static final int FIELD_OVERHEAD = 64;

  private final String id;
  private final String seriesId;
  private final long count;
  private final long startMillis;
  private final long endMillis;
  private final byte[] blob;
  private final RecordStats stats;
  private final SeriesFields fields;
  private final long bytes;

  private ReadRecord(String id, long count, long startMillis, long endMillis, byte[] blob, RecordStats stats,
      SeriesFields fields, long bytes) {
    this.id = id;
    this.seriesId = RecordSchema.seriesIdOf(id);
    this.count = count;
    this.startMillis = startMillis;
    this.endMillis = endMillis;
    this.blob = blob;
    this.stats = stats;
    this.fields = fields;
    this.bytes = bytes;
  }

  /**
   * The record of these stored fields (with its blob or without, as read).
   *
   * @throws IllegalStateException where it lacks its id, point count or span, which every record has
   */
  static ReadRecord of(Document document) {
    String id = document.get(RecordFields.ID);
    if (id == null) {
      throw new IllegalStateException("a stored record has no " + RecordFields.ID);
    }
    SeriesFields fields = new SeriesFields();
    long bytes = OVERHEAD;
    for (IndexableField field : document.getFields()) {
      String name = field.name();
      if (RecordFields.isSeriesField(name)) {
        fields.add(name, SeriesFields.text(field));
      }
      bytes += FIELD_OVERHEAD + name.length() + valueBytes(field);
    }
    return new ReadRecord(id, required(document, RecordFields.COUNT, id), required(document, RecordFields.START, id),
        required(document, RecordFields.END, id), blobOf(document), stats(document), fields, bytes);
  }

  String id() {
    return id;
  }

  /** The id of the record's series ({@link RecordSchema#seriesIdOf}): the join key when every series stands alone. */
  String seriesId() {
    return seriesId;
  }

  long count() {
    return count;
  }

  long startMillis() {
    return startMillis;
  }

  long endMillis() {
    return endMillis;
  }

  /** The blob, or null where the record was read without it. Never to be written to. */
  byte[] blob() {
    return blob;
  }

  /** The stored statistics, or null for a record written without them. */
  RecordStats stats() {
    return stats;
  }

  /** The record's value of a series field (name, type or an attribute) as text, or null where it has none. */
  String value(String field) {
    return fields.first(field);
  }

  /** Adds the record's series fields to a joined series' fields. */
  void addFieldsTo(SeriesFields joined) {
    joined.addAll(fields);
  }

  /** What the record holds in memory, estimated as the stored fields it was made of: the cache's weight. */
  long bytes() {
    return bytes;
  }

  private static long required(Document document, String field, String id) {
    IndexableField value = document.getField(field);
    if (value == null || value.numericValue() == null) {
      throw new IllegalStateException("stored record " + id + " has no numeric " + field);
    }
    return value.numericValue().longValue();
  }

  private static long valueBytes(IndexableField field) {
    BytesRef binary = field.binaryValue();
    if (binary != null) {
      return binary.length;
    }
    return field.stringValue() != null ? 2L * field.stringValue().length() : 8;
  }

  /**
   * The record's blob, or null where it was not read. Lucene hands stored binary fields over in a
   * newly allocated array (StoredFieldVisitor), so one that fills its array is taken as it is.
   */
  private static byte[] blobOf(Document document) {
    BytesRef data = document.getBinaryValue(RecordFields.DATA);
    if (data == null) {
      return null;
    }
    if (data.offset == 0 && data.length == data.bytes.length) {
      return data.bytes;
    }
    return java.util.Arrays.copyOfRange(data.bytes, data.offset, data.offset + data.length);
  }

  /** A record's stored statistics, or null for records written without them. */
  private static RecordStats stats(Document document) {
    IndexableField count = document.getField(RecordFields.COUNT);
    IndexableField min = document.getField(RecordFields.MIN);
    IndexableField max = document.getField(RecordFields.MAX);
    IndexableField sum = document.getField(RecordFields.SUM);
    IndexableField first = document.getField(RecordFields.FIRST);
    IndexableField last = document.getField(RecordFields.LAST);
    if (count == null || min == null || max == null || sum == null || first == null || last == null) {
      return null;
    }
    return new RecordStats(count.numericValue().longValue(), min.numericValue().doubleValue(),
        max.numericValue().doubleValue(), sum.numericValue().doubleValue(), first.numericValue().doubleValue(),
        last.numericValue().doubleValue());
  }
}
