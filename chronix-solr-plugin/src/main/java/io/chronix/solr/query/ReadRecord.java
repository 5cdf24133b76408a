package io.chronix.solr.query;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.BlockStats;
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
 * <p>Shared between requests: nothing in it is changed after it is made, but for the figures of
 * its blob's blocks, which queries over ranges keep in it as they decode them ({@link BlockStats}).
 */
final class ReadRecord {

  /** A record's bytes besides its values: the objects and arrays holding them. */
  private static final int OVERHEAD = 128;
  /** A series field's entry besides its name's and value's characters. */
  private static final int FIELD_OVERHEAD = 64;
  /** The numbers kept, 8 bytes each: the span's ends and the six statistics (the count among them). */
  private static final int NUMBER_BYTES = 8 * 8;

  private final String id;
  private final String seriesId;
  private final long count;
  private final long startMillis;
  private final long endMillis;
  private final byte[] blob;
  private final RecordStats stats;
  private final SeriesFields fields;
  private final long bytes;
  /** Made on first use, by whichever query comes first; a second one made by a race only repeats work. */
  private volatile BlockStats blockStats;

  private ReadRecord(String id, String seriesId, long count, long startMillis, long endMillis, byte[] blob,
      RecordStats stats, SeriesFields fields, long bytes) {
    this.id = id;
    this.seriesId = seriesId;
    this.count = count;
    this.startMillis = startMillis;
    this.endMillis = endMillis;
    this.blob = blob;
    this.stats = stats;
    this.fields = fields;
    this.bytes = bytes;
  }

  /**
   * The record of these stored fields (with its blob or without, as read), in one pass over them:
   * finding each of a dozen fields by name searched the list a dozen times, and weighing every
   * field for the cache cost a fifth of making a record that does not go into it.
   *
   * @throws IllegalStateException where it lacks its id, point count or span, which every record has
   */
  static ReadRecord of(Document document) {
    String id = null;
    IndexableField start = null;
    IndexableField end = null;
    BytesRef data = null;
    IndexableField[] stats = new IndexableField[6]; // count, min, max, sum, first, last: RecordStats' order
    SeriesFields fields = new SeriesFields();
    long bytes = OVERHEAD;
    for (IndexableField field : document.getFields()) {
      String name = field.name();
      switch (name) {
        // the first of a name counts, as Document.get and getField take it
        case RecordFields.ID -> id = id == null ? field.stringValue() : id;
        case RecordFields.START -> start = start == null ? field : start;
        case RecordFields.END -> end = end == null ? field : end;
        case RecordFields.DATA -> data = data == null ? field.binaryValue() : data;
        case RecordFields.COUNT -> keepFirst(stats, 0, field);
        case RecordFields.MIN -> keepFirst(stats, 1, field);
        case RecordFields.MAX -> keepFirst(stats, 2, field);
        case RecordFields.SUM -> keepFirst(stats, 3, field);
        case RecordFields.FIRST -> keepFirst(stats, 4, field);
        case RecordFields.LAST -> keepFirst(stats, 5, field);
        default -> {
          if (RecordFields.isSeriesField(name)) {
            String value = SeriesFields.text(field);
            fields.add(name, value);
            bytes += FIELD_OVERHEAD + 2L * (name.length() + value.length());
          }
        }
      }
    }
    if (id == null) {
      throw new IllegalStateException("a stored record has no " + RecordFields.ID);
    }
    byte[] blob = blobOf(data);
    String seriesId = RecordSchema.seriesIdOf(id);
    // the series id is a string of its own where it is not the whole id
    bytes += 2L * (id.length() + (seriesId == id ? 0 : seriesId.length())) + (blob == null ? 0 : blob.length)
        + NUMBER_BYTES;
    long count = required(stats[0], RecordFields.COUNT, id);
    if (blob != null) { // the figures of its blocks, as queries may keep them
      bytes += OVERHEAD + (count + ChunkCodec.BLOCK_POINTS - 1) / ChunkCodec.BLOCK_POINTS * BlockStats.BYTES_A_BLOCK;
    }
    return new ReadRecord(id, seriesId, count,
        required(start, RecordFields.START, id), required(end, RecordFields.END, id), blob, statsOf(stats), fields,
        bytes);
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

  /**
   * The figures of the blob's {@code blocks} blocks that queries keep here; the record's weight
   * counts them, estimated from its point count.
   */
  BlockStats blockStats(int blocks) {
    BlockStats kept = blockStats;
    if (kept == null || kept.blocks() != blocks) {
      kept = new BlockStats(blocks);
      blockStats = kept;
    }
    return kept;
  }

  /** What the record holds in memory, estimated: its weight in the cache. */
  long bytes() {
    return bytes;
  }

  private static void keepFirst(IndexableField[] fields, int at, IndexableField field) {
    if (fields[at] == null) {
      fields[at] = field;
    }
  }

  private static long required(IndexableField value, String field, String id) {
    if (value == null || value.numericValue() == null) {
      throw new IllegalStateException("stored record " + id + " has no numeric " + field);
    }
    return value.numericValue().longValue();
  }

  /**
   * The record's blob, or null where it was not read. Lucene hands stored binary fields over in a
   * newly allocated array (StoredFieldVisitor), so one that fills its array is taken as it is.
   */
  private static byte[] blobOf(BytesRef data) {
    if (data == null) {
      return null;
    }
    if (data.offset == 0 && data.length == data.bytes.length) {
      return data.bytes;
    }
    return java.util.Arrays.copyOfRange(data.bytes, data.offset, data.offset + data.length);
  }

  /** A record's stored statistics (count, min, max, sum, first, last), or null for records written without them. */
  private static RecordStats statsOf(IndexableField[] stats) {
    for (IndexableField stat : stats) {
      if (stat == null || stat.numericValue() == null) {
        return null;
      }
    }
    return new RecordStats(stats[0].numericValue().longValue(), stats[1].numericValue().doubleValue(),
        stats[2].numericValue().doubleValue(), stats[3].numericValue().doubleValue(),
        stats[4].numericValue().doubleValue(), stats[5].numericValue().doubleValue());
  }
}
