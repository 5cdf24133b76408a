package io.chronix.ingest.wal;

import io.chronix.core.codec.ByteReader;
import io.chronix.core.codec.ByteWriter;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.pipeline.PointBatch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One logged batch, version 1 (docs/formats.md): the batch's distinct series keys, then its points
 * as (key index, timestamp delta, value): 8 bytes of double bits (booleans as 0.0/1.0) or of a
 * long, or a string, as the series' type says. The framing (length, CRC) is the log's.
 */
final class WalEntries {

  private WalEntries() {}

  static byte[] encode(PointBatch batch) {
    Map<SeriesKey, Integer> indexes = new HashMap<>();
    List<SeriesKey> keys = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      if (indexes.putIfAbsent(batch.key(i), keys.size()) == null) {
        keys.add(batch.key(i));
      }
    }
    ByteWriter out = new ByteWriter(batch.size() * 12 + keys.size() * 64);
    out.writeVarLong(keys.size());
    for (SeriesKey key : keys) {
      writeString(key.name(), out);
      writeString(key.type(), out);
      out.writeVarLong(key.attributes().size());
      for (Map.Entry<String, String> attribute : key.attributes().entrySet()) {
        writeString(attribute.getKey(), out);
        writeString(attribute.getValue(), out);
      }
    }
    out.writeVarLong(batch.size());
    long previous = 0;
    for (int i = 0; i < batch.size(); i++) {
      out.writeVarLong(indexes.get(batch.key(i)));
      out.writeZigZag(batch.timestamp(i) - previous);
      previous = batch.timestamp(i);
      switch (ValueType.ofTypeName(batch.key(i).type())) {
        case LONG:
          out.writeLong(batch.longValue(i));
          break;
        case STRING:
          writeString(batch.text(i), out);
          break;
        default:
          out.writeLong(Double.doubleToRawLongBits(batch.value(i)));
      }
    }
    return out.toByteArray();
  }

  static PointBatch decode(byte[] payload) {
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
    PointBatch batch = new PointBatch(Math.max(1, points));
    long timestamp = 0;
    for (int i = 0; i < points; i++) {
      long index = in.readVarLong();
      if (index < 0 || index >= keyCount) {
        throw new CorruptBlobException("log entry names series " + index + " of " + keyCount);
      }
      timestamp += in.readZigZag();
      SeriesKey key = keys[(int) index];
      switch (ValueType.ofTypeName(key.type())) {
        case LONG:
          batch.acceptLong(key, timestamp, in.readLong());
          break;
        case BOOLEAN:
          batch.acceptBoolean(key, timestamp, Double.longBitsToDouble(in.readLong()) != 0);
          break;
        case STRING:
          batch.acceptText(key, timestamp, readString(in, payload.length));
          break;
        default:
          batch.accept(key, timestamp, Double.longBitsToDouble(in.readLong()));
      }
    }
    return batch;
  }

  private static void writeString(String text, ByteWriter out) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeVarLong(bytes.length);
    for (byte b : bytes) {
      out.writeByte(b);
    }
  }

  private static String readString(ByteReader in, int limit) {
    int length = count(in, limit);
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) in.readByte();
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static int count(ByteReader in, int limit) {
    long count = in.readVarLong();
    if (count < 0 || count > limit) {
      throw new CorruptBlobException("implausible count " + count + " in log entry");
    }
    return (int) count;
  }
}
