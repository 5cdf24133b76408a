package io.chronix.ingest.wal;

import io.chronix.core.codec.ByteReader;
import io.chronix.core.codec.ByteWriter;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import java.util.Map;
import java.util.TreeMap;

/**
 * One logged batch (docs/formats.md): the batch's distinct series keys, then its points as (key
 * index, timestamp delta, value): 8 bytes of double bits (booleans as 0.0/1.0) or of a long, a
 * string, or an array (varint length, 8 bytes of bits an element), as the series' type says.
 * Arrays came with segment version 3 and forwarded-batch version 2; no earlier writer ever wrote
 * a series of type {@code array}, so every earlier entry reads the same. The framing (length, CRC) is the log's; ingest
 * nodes forward batches to a series' owner in the same encoding (docs/formats.md).
 */
public final class WalEntries {

  private WalEntries() {}

  /** The batch as one entry, its keys encoded afresh (the log keeps a cache of them). */
  public static byte[] encode(PointBatch batch) {
    ByteWriter out = encode(batch, new KeyEncodings(), 0);
    return out.toByteArray();
  }

  /**
   * The batch as one entry after {@code reserved} bytes left free (the log writes its frame header
   * there: the entry is framed where it was encoded, not copied into a frame). The writer is sized
   * once from the keys' encodings and a bound of each point's bytes: a batch of ten thousand series
   * grew it four times over, and together with the copies into an array and a frame the log
   * allocated five times each entry's size.
   */
  static ByteWriter encode(PointBatch batch, KeyEncodings keyEncodings, int reserved) {
    return encode(batch, keyEncodings, reserved, null);
  }

  /** As {@link #encode(PointBatch, KeyEncodings, int)}, into the given writer (emptied first) if not null. */
  static ByteWriter encode(PointBatch batch, KeyEncodings keyEncodings, int reserved, ByteWriter reuse) {
    int keyCount = batch.seriesCount();
    byte[][] keys = new byte[keyCount][];
    long keyBytes = 0;
    for (int k = 0; k < keyCount; k++) {
      keys[k] = keyEncodings.of(batch.handle(k));
      keyBytes += keys[k].length;
    }
    // a point: its key's index (at most 5 bytes) and timestamp delta (10) as varints, 8 bytes of
    // value; strings and arrays grow the writer as they come
    long bound = reserved + 10 + keyBytes + 10 + (long) batch.size() * 23;
    int capacity = (int) Math.min(bound, Integer.MAX_VALUE - 16);
    ByteWriter out = reuse != null ? reuse : new ByteWriter(capacity);
    out.reset(capacity);
    for (int i = 0; i < reserved; i++) {
      out.writeByte(0);
    }
    out.writeVarLong(keyCount);
    for (byte[] key : keys) {
      out.writeBytes(key, 0, key.length);
    }
    out.writeVarLong(batch.size());
    long previous = 0;
    for (int i = 0; i < batch.size(); i++) {
      int series = batch.seriesOf(i);
      out.writeVarLong(series);
      out.writeZigZag(batch.timestamp(i) - previous);
      previous = batch.timestamp(i);
      switch (batch.seriesType(series)) { // the batch's column: through handle and key a point missed the cache
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
    return out;
  }

  /** @throws CorruptBlobException naming what does not fit, where the bytes are not such an entry */
  public static PointBatch decode(byte[] payload) {
    ByteReader in = new ByteReader(payload, 0, payload.length);
    int keyCount = count(in, payload.length);
    SeriesKey[] keys = new SeriesKey[keyCount];
    for (int k = 0; k < keyCount; k++) {
      String name = readString(in, payload.length);
      String type = readString(in, payload.length);
      int attributeCount = count(in, payload.length);
      Map<String, String> attributes = new TreeMap<>();
      for (int a = 0; a < attributeCount; a++) {
        attributes.put(readString(in, payload.length), readString(in, payload.length));
      }
      keys[k] = new SeriesKey(name, type, attributes);
    }
    int points = count(in, payload.length);
    // a point takes ten bytes at least: a forged count cannot make the batch allocate more than that
    PointBatch batch = new PointBatch(Math.max(1, Math.min(points, payload.length / 10)));
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
          batch.acceptText(key, timestamp, readString(in, payload.length));
          break;
        case ARRAY:
          // eight bytes an element: a forged length cannot allocate beyond the payload
          double[] array = new double[count(in, payload.length / 8)];
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
