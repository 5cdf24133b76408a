package io.chronix.ingest.wal;

import io.chronix.core.codec.ByteWriter;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesHandle;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Series keys as log entries write them (name, type, attributes: {@link WalEntries}), kept per
 * key: a series is defined again in every new segment (and forwarded batches name every series in
 * full), and a stream of 10,000 series a request spent a quarter of its ingest time encoding the
 * same keys again. Bounded by bytes: when full it starts over, which costs only the encoding.
 */
final class KeyEncodings {

  static final long MAX_BYTES = 8L << 20;

  private final Map<SeriesKey, byte[]> encoded = new ConcurrentHashMap<>();
  private final AtomicLong bytes = new AtomicLong();

  /** The key's encoding, kept in its handle: a series a parser keeps a handle for is encoded once. */
  byte[] of(SeriesHandle series) {
    byte[] known = series.logKey();
    if (known == null) {
      known = of(series.key());
      series.logKey(known);
    }
    return known;
  }

  byte[] of(SeriesKey key) {
    byte[] known = encoded.get(key);
    if (known != null) {
      return known;
    }
    byte[] fresh = encode(key);
    if (bytes.addAndGet(fresh.length + 64L) > MAX_BYTES) { // 64: the map's entry
      encoded.clear();
      bytes.set(fresh.length + 64L);
    }
    encoded.put(key, fresh);
    return fresh;
  }

  static byte[] encode(SeriesKey key) {
    ByteWriter out = new ByteWriter(64);
    writeString(key.name(), out);
    writeString(key.type(), out);
    out.writeVarLong(key.attributes().size());
    for (Map.Entry<String, String> attribute : key.attributes().entrySet()) {
      writeString(attribute.getKey(), out);
      writeString(attribute.getValue(), out);
    }
    return out.toByteArray();
  }

  static void writeString(String text, ByteWriter out) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeVarLong(bytes.length);
    out.writeBytes(bytes, 0, bytes.length);
  }
}
