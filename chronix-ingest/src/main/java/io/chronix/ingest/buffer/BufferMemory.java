package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;

/**
 * How much heap buffered data holds, counted the way the JVM keeps it (docs/ingest.md, memory
 * budget): numeric points as their packed arrays hold them ({@link SeriesBuffer#countPacked}), and
 * 24 bytes each until then (a batch's admission, staged points); a string point adds the string
 * (object header and two bytes a character, the safe side of compact strings) to that; a series
 * adds its key's name and attribute values, its buffer's empty arrays and map entries.
 */
public final class BufferMemory {

  /**
   * A numeric point before it is packed, and what a string or array point holds besides its own:
   * timestamp and value, 8 bytes each, in arrays grown by half. A packed point takes at most about
   * this (19-20 bytes in an array grown by a quarter), so batches are admitted by it.
   */
  public static final long NUMERIC_POINT = 24;
  /** A String object with its byte array, before the characters. */
  static final long STRING_OVERHEAD = 56;
  /** An attribute's name and value references in its key's arrays ({@link io.chronix.core.series.AttributeMap}). */
  private static final long ATTRIBUTE_ENTRY = 8;
  /** A buffer with its empty arrays, its map entry, lock and bookkeeping. */
  static final long SERIES_OVERHEAD = SeriesBuffer.INITIAL_CAPACITY * 16L + 400;

  private BufferMemory() {}

  /** Point {@code index} of {@code points}, which belong to a series of the given type. */
  public static long point(ValueType type, PointColumns points, int index) {
    switch (type) {
      case STRING:
        return textPoint(points.text(index));
      case ARRAY:
        return arrayPoint(points.array(index).length);
      default:
        return NUMERIC_POINT;
    }
  }

  /** A point of an array series: the array object and its elements besides timestamp and reference. */
  public static long arrayPoint(int length) {
    return NUMERIC_POINT + 16 + 8L * length;
  }

  public static long textPoint(String text) {
    return NUMERIC_POINT + STRING_OVERHEAD + 2L * text.length();
  }

  /**
   * A series' fixed memory: key and empty buffer. Attribute names and the type are words every
   * key shares ({@link io.chronix.core.series.SeriesWords}): counted per series they made a
   * fleet's keys (four attributes each) look 1.8 times their heap, and the buffers wrote their
   * points out a few at a time to stay under a budget they did not use.
   */
  public static long series(SeriesKey key) {
    // the name and each value a string of its own; the characters counted once by the key
    int attributes = key.attributes().size();
    return SERIES_OVERHEAD + (1 + attributes) * STRING_OVERHEAD + 2L * key.valueCharacters()
        + attributes * ATTRIBUTE_ENTRY;
  }

  /** The memory of string or array points, as buffers count them (a numeric buffer counts its packed array). */
  static long pointBytes(Points points) {
    long bytes = 0;
    for (int i = 0; i < points.size(); i++) {
      bytes += points.type() == ValueType.ARRAY ? arrayPoint(points.array(i).length) : textPoint(points.text(i));
    }
    return bytes;
  }
}
