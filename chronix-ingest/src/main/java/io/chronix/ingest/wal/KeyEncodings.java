package io.chronix.ingest.wal;

import io.chronix.core.codec.ByteWriter;
import io.chronix.core.series.AttributeMap;
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
    byte[] ascii = encodeAscii(key);
    return ascii != null ? ascii : encodeAny(key);
  }

  /** Any key: each part's UTF-8 bytes after their count. */
  static byte[] encodeAny(SeriesKey key) {
    ByteWriter out = new ByteWriter(64);
    writeString(key.name(), out);
    writeString(key.type(), out);
    AttributeMap attributes = key.attributes();
    out.writeVarLong(attributes.size());
    for (int i = 0; i < attributes.size(); i++) {
      writeString(attributes.name(i), out);
      writeString(attributes.value(i), out);
    }
    return out.toByteArray();
  }

  /**
   * The same bytes as {@link #encodeAny} when every part is ASCII (almost every key),
   * written into an array of the exact size: no byte array a string and no growing and copying
   * of a writer, which were a tenth of making a series of the 10,000-series stream. Null when a
   * part is not ASCII, or a part is longer than a one-byte length.
   */
  private static byte[] encodeAscii(SeriesKey key) {
    AttributeMap attributes = key.attributes();
    if (attributes.size() >= 0x80) {
      return null;
    }
    int size = 1;
    for (int part = 0; part < 2 + 2 * attributes.size(); part++) {
      int length = asciiLength(part(key, attributes, part));
      if (length < 0) {
        return null;
      }
      size += 1 + length;
    }
    byte[] out = new byte[size];
    int at = 0;
    for (int part = 0; part < 2 + 2 * attributes.size(); part++) {
      at = putAscii(part(key, attributes, part), out, at);
      if (part == 1) {
        out[at++] = (byte) attributes.size();
      }
    }
    return out;
  }

  /** Name, type, then each attribute's name and value: the order {@link #encode} writes. */
  private static String part(SeriesKey key, AttributeMap attributes, int part) {
    if (part < 2) {
      return part == 0 ? key.name() : key.type();
    }
    int attribute = (part - 2) / 2;
    return part % 2 == 0 ? attributes.name(attribute) : attributes.value(attribute);
  }

  /** The string's length when it is ASCII and short enough for a one-byte length prefix, else -1. */
  private static int asciiLength(String text) {
    int length = text.length();
    if (length >= 0x80) {
      return -1;
    }
    for (int i = 0; i < length; i++) {
      if (text.charAt(i) >= 0x80) {
        return -1;
      }
    }
    return length;
  }

  private static int putAscii(String text, byte[] out, int at) {
    out[at++] = (byte) text.length(); // the var-length prefix of a length under 128 is one byte
    for (int i = 0; i < text.length(); i++) {
      out[at++] = (byte) text.charAt(i);
    }
    return at;
  }

  static void writeString(String text, ByteWriter out) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeVarLong(bytes.length);
    out.writeBytes(bytes, 0, bytes.length);
  }
}
