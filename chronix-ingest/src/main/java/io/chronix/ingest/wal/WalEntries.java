package io.chronix.ingest.wal;

import io.chronix.core.codec.ByteReader;
import io.chronix.core.codec.ByteWriter;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.buffer.SeriesHandle;
import io.chronix.ingest.pipeline.PointBatch;
import java.util.Map;
import java.util.TreeMap;

/**
 * One logged batch (docs/formats.md). In segment version 4 the series that the segment's earlier
 * entries define are named by number and the others are defined (number and key) first
 * ({@link SegmentSeries}); version 3 entries, and forwarded batches, hold every series key. Then
 * the batch's points as (series index, timestamp delta, value): 8 bytes of double bits (booleans
 * as 0.0/1.0) or of a long, a string, or an array (varint length, 8 bytes of bits an element), as
 * the series' type says. Arrays came with segment version 3 and forwarded-batch version 2; no
 * earlier writer ever wrote a series of type {@code array}, so every earlier entry reads the same.
 * The framing (length, CRC) is the log's; ingest nodes forward batches to a series' owner in the
 * version 3 encoding (docs/formats.md).
 */
public final class WalEntries {

  private WalEntries() {}

  /**
   * The batch as one entry that holds every series key (segment version 3, forwarded batches), its
   * keys encoded afresh.
   */
  public static byte[] encode(PointBatch batch) {
    KeyEncodings keyEncodings = new KeyEncodings();
    int keyCount = batch.seriesCount();
    byte[][] keys = new byte[keyCount][];
    long keyBytes = 0;
    for (int k = 0; k < keyCount; k++) {
      keys[k] = keyEncodings.of(batch.handle(k));
      keyBytes += keys[k].length;
    }
    ByteWriter out = writer(keyBytes, batch, 0, null);
    out.writeVarLong(keyCount);
    for (byte[] key : keys) {
      out.writeBytes(key, 0, key.length);
    }
    writePoints(batch, out);
    return out.toByteArray();
  }

  /**
   * The batch as one entry of a segment that numbers its series (segment version 4): series the
   * segment's written entries define already are named by number, the others are defined here.
   * The entry is framed after {@code reserved} free bytes, in the given writer (emptied first) if
   * not null.
   */
  static Numbered encode(PointBatch batch, KeyEncodings keyEncodings, SegmentSeries segment, int reserved,
      ByteWriter reuse) {
    int keyCount = batch.seriesCount();
    int[] refs = new int[keyCount];
    int[] defined = null;
    int definedCount = 0;
    long keyBytes = 0;
    for (int k = 0; k < keyCount; k++) {
      SeriesHandle handle = batch.handle(k);
      int ref = handle.logRef(segment.identity());
      if (ref < 0) {
        ref = segment.newRef();
        if (defined == null) {
          defined = new int[keyCount - k];
        }
        defined[definedCount++] = k;
        keyBytes += keyEncodings.of(handle).length + 5;
      }
      refs[k] = ref;
    }
    ByteWriter out = writer(keyBytes + 10 + 5L * keyCount, batch, reserved, reuse);
    out.writeVarLong(definedCount);
    for (int d = 0; d < definedCount; d++) {
      int k = defined[d];
      out.writeVarLong(refs[k]);
      byte[] key = keyEncodings.of(batch.handle(k));
      out.writeBytes(key, 0, key.length);
    }
    out.writeVarLong(keyCount);
    for (int ref : refs) {
      out.writeVarLong(ref);
    }
    writePoints(batch, out);
    return new Numbered(out, segment, batch, refs, defined, definedCount);
  }

  /** An entry that numbers its series, and the definitions to note in their handles once it is written. */
  static final class Numbered {
    private final ByteWriter bytes;
    private final SegmentSeries segment;
    private final PointBatch batch;
    private final int[] refs;
    private final int[] defined;
    private final int definedCount;

    private Numbered(ByteWriter bytes, SegmentSeries segment, PointBatch batch, int[] refs, int[] defined,
        int definedCount) {
      this.bytes = bytes;
      this.segment = segment;
      this.batch = batch;
      this.refs = refs;
      this.defined = defined;
      this.definedCount = definedCount;
    }

    ByteWriter bytes() {
      return bytes;
    }

    SegmentSeries segment() {
      return segment;
    }

    /** Called once the entry is in its segment: later entries may name these series by number. */
    void defined() {
      for (int d = 0; d < definedCount; d++) {
        batch.handle(defined[d]).logRef(segment.identity(), refs[defined[d]]);
      }
    }
  }

  /**
   * A writer emptied and sized once for an entry whose series take {@code seriesBytes}, with
   * {@code reserved} zero bytes first. A point: its series' index (at most 5 bytes) and timestamp
   * delta (10) as varints, 8 bytes of value; strings and arrays grow the writer as they come.
   */
  private static ByteWriter writer(long seriesBytes, PointBatch batch, int reserved, ByteWriter reuse) {
    long bound = reserved + 10 + seriesBytes + 10 + (long) batch.size() * 23;
    int capacity = (int) Math.min(bound, Integer.MAX_VALUE - 16);
    ByteWriter out = reuse != null ? reuse : new ByteWriter(capacity);
    out.reset(capacity);
    for (int i = 0; i < reserved; i++) {
      out.writeByte(0);
    }
    return out;
  }

  /** The points of an entry, after its series: (index, timestamp delta, value) each. */
  private static void writePoints(PointBatch batch, ByteWriter out) {
    out.writeVarLong(batch.size());
    long previous = 0;
    for (int i = 0; i < batch.size(); i++) {
      int series = batch.seriesOf(i);
      long timestamp = batch.timestamp(i);
      ValueType type = batch.seriesType(series); // the batch's column: through handle and key a point missed the cache
      if (type == ValueType.DOUBLE) { // most points: one call
        out.writeVarLongZigZagLong(series, timestamp - previous, Double.doubleToRawLongBits(batch.value(i)));
        previous = timestamp;
        continue;
      }
      out.writeVarLong(series);
      out.writeZigZag(timestamp - previous);
      previous = timestamp;
      switch (type) {
        case LONG:
          out.writeLong(batch.longValue(i));
          break;
        case STRING:
          KeyEncodings.writeString(batch.text(i), out);
          break;
        case ARRAY:
          double[] array = batch.array(i);
          out.writeVarLong(array.length);
          for (double element : array) {
            out.writeLong(Double.doubleToRawLongBits(element));
          }
          break;
        default:
          out.writeLong(Double.doubleToRawLongBits(batch.value(i)));
      }
    }
  }

  /** @throws CorruptBlobException naming what does not fit, where the bytes are not such an entry */
  public static PointBatch decode(byte[] payload) {
    ByteReader in = new ByteReader(payload, 0, payload.length);
    int keyCount = count(in, payload.length);
    SeriesKey[] keys = new SeriesKey[keyCount];
    for (int k = 0; k < keyCount; k++) {
      keys[k] = readKey(in, payload.length);
    }
    return readPoints(in, payload.length, keys);
  }

  /**
   * An entry of a segment that numbers its series (version 4): its definitions are added to
   * {@code defined}, the segment's numbers so far, before its series are looked up there.
   *
   * @throws CorruptBlobException where the bytes are not such an entry, or name a series no entry
   *     of the segment read so far defines (an earlier entry of it was damaged)
   */
  static PointBatch decode(byte[] payload, Map<Integer, SeriesKey> defined) {
    ByteReader in = new ByteReader(payload, 0, payload.length);
    int definitions = count(in, payload.length);
    for (int d = 0; d < definitions; d++) {
      int ref = seriesNumber(in);
      if (ref < 0) {
        throw new CorruptBlobException("log entry defines a series number beyond an int");
      }
      defined.put(ref, readKey(in, payload.length));
    }
    int keyCount = count(in, payload.length);
    SeriesKey[] keys = new SeriesKey[keyCount];
    for (int k = 0; k < keyCount; k++) {
      int ref = seriesNumber(in);
      SeriesKey key = ref < 0 ? null : defined.get(ref);
      if (key == null) {
        throw new CorruptBlobException("log entry names series number " + ref
            + ", which no readable entry of its segment defines");
      }
      keys[k] = key;
    }
    return readPoints(in, payload.length, keys);
  }

  /** A series number as version 4 writes it, or -1 where the varint is beyond a non-negative int. */
  private static int seriesNumber(ByteReader in) {
    long ref = in.readVarLong();
    return ref < 0 || ref > Integer.MAX_VALUE ? -1 : (int) ref;
  }

  private static SeriesKey readKey(ByteReader in, int limit) {
    String name = readString(in, limit);
    String type = readString(in, limit);
    int attributeCount = count(in, limit);
    Map<String, String> attributes = new TreeMap<>();
    for (int a = 0; a < attributeCount; a++) {
      attributes.put(readString(in, limit), readString(in, limit));
    }
    return new SeriesKey(name, type, attributes);
  }

  private static PointBatch readPoints(ByteReader in, int limit, SeriesKey[] keys) {
    int keyCount = keys.length;
    int points = count(in, limit);
    // a point takes ten bytes at least: a forged count cannot make the batch allocate more than that
    PointBatch batch = new PointBatch(Math.max(1, Math.min(points, limit / 10)));
    long timestamp = 0;
    for (int i = 0; i < points; i++) {
      long index = in.readVarLong();
      if (index < 0 || index >= keyCount) {
        throw new CorruptBlobException("log entry names series " + index + " of " + keyCount);
      }
      timestamp += in.readZigZag();
      SeriesKey key = keys[(int) index];
      switch (key.valueType()) {
        case LONG:
          batch.acceptLong(key, timestamp, in.readLong());
          break;
        case BOOLEAN:
          batch.acceptBoolean(key, timestamp, Double.longBitsToDouble(in.readLong()) != 0);
          break;
        case STRING:
          batch.acceptText(key, timestamp, readString(in, limit));
          break;
        case ARRAY:
          // eight bytes an element: a forged length cannot allocate beyond the payload
          double[] array = new double[count(in, limit / 8)];
          for (int k = 0; k < array.length; k++) {
            array[k] = Double.longBitsToDouble(in.readLong());
          }
          batch.acceptArray(key, timestamp, array);
          break;
        default:
          batch.accept(key, timestamp, Double.longBitsToDouble(in.readLong()));
      }
    }
    return batch;
  }

  private static String readString(ByteReader in, int limit) {
    return in.readUtf8(count(in, limit));
  }

  private static int count(ByteReader in, int limit) {
    long count = in.readVarLong();
    if (count < 0 || count > limit) {
      throw new CorruptBlobException("implausible count " + count + " in log entry");
    }
    return (int) count;
  }
}
