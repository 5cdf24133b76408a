package io.chronix.core.codec;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.Arrays;

/**
 * Numeric points (doubles, booleans, longs) packed into one byte array as they arrive, in any
 * timestamp order: the not yet written points of a series, as Prometheus' head chunks hold them.
 * A buffered point in two primitive arrays took 16 bytes and more while its chunk filled, and the
 * collector copied those arrays at every young collection they lived through (docs/benchmarks.md,
 * "The fleet's load: what the collector copies"); packed, a point of a gauge sampled at a steady
 * interval takes two or three bytes.
 *
 * <p>Layout (in memory only, never stored): per point, the timestamp as a zig-zag varint of its
 * delta of deltas (the first point against 0), then the value:
 * <ul>
 *   <li>doubles and booleans while every value so far is m / 10^k for one k (as {@link
 *       ValueEncoding}'s DECIMAL mode): a zig-zag varint of the change of m. A value that needs a
 *       larger k repacks the points with it; one that none fits (NaN, many digits) repacks them
 *       in the XOR form;
 *   <li>the XOR form: a header byte (leading zero bytes &lt;&lt; 4 | trailing zero bytes) and the
 *       bytes between of the value's bits XORed with the previous value's, as {@link ValueEncoding};
 *   <li>longs: a zig-zag varint of the change.
 * </ul>
 *
 * <p>Not thread-safe: its buffer's lock guards it.
 */
public final class PackedPoints {

  /** The XOR form's exponent. */
  private static final int XOR = -1;
  /** A point's most bytes: two ten-byte varints, or a varint, a header byte and eight bytes. */
  private static final int MAX_POINT_BYTES = 20;
  /** The array's object header and length, and this object's fields. */
  private static final long FIXED_BYTES = 16 + 72;
  private static final byte[] NONE = new byte[0];

  private final ValueType type;
  private byte[] bytes;
  private int length;
  private int size;
  private long lastTimestamp;
  private long lastDelta;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
  /** Doubles: the decimal exponent k, or {@link #XOR}; longs: 0. */
  private int exponent;
  /** m of the last value, its bits in the XOR form, or the last long. */
  private long lastValue;

  /**
   * Empty points of a numeric type, with room for {@code capacityBytes} bytes and values expected
   * as m / 10^{@code exponent} (a series' last {@link #exponent()} saves repacking its next points).
   */
  public PackedPoints(ValueType type, int capacityBytes, int exponent) {
    if (type != ValueType.DOUBLE && type != ValueType.BOOLEAN && type != ValueType.LONG) {
      throw new IllegalArgumentException(type + " points are not numeric");
    }
    this.type = type;
    this.bytes = capacityBytes <= 0 ? NONE : new byte[capacityBytes];
    // a series whose last points needed the XOR form starts decimal again: repacking none costs nothing
    this.exponent = type == ValueType.LONG ? 0 : Math.max(0, Math.min(exponent, ValueEncoding.maxDecimalExponent()));
  }

  public PackedPoints(ValueType type) {
    this(type, 0, 0);
  }

  /** Packed copies of the given points. */
  public static PackedPoints of(Points points) {
    PackedPoints packed = new PackedPoints(points.type(), points.size() * 3, 0);
    packed.addAll(points);
    return packed;
  }

  public ValueType type() {
    return type;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The decimal exponent the values fit so far, or -1 when they are in the XOR form. */
  public int exponent() {
    return exponent;
  }

  /** Bytes the packed points fill. */
  public int length() {
    return length;
  }

  /** The array's length: the bytes filled and the room to grow. */
  public int capacityBytes() {
    return bytes.length;
  }

  /** Heap these points hold: the array with its room to grow, and this object. */
  public long heapBytes() {
    return FIXED_BYTES + bytes.length;
  }

  /** The smallest timestamp; {@link Long#MAX_VALUE} when empty. */
  public long minTimestamp() {
    return minTimestamp;
  }

  /** The largest timestamp; {@link Long#MIN_VALUE} when empty. */
  public long maxTimestamp() {
    return maxTimestamp;
  }

  /** Adds a double, or a boolean as 0 or 1. */
  public void add(long timestamp, double value) {
    if (type == ValueType.LONG) {
      throw new IllegalStateException("LONG points take no doubles");
    }
    ensure(MAX_POINT_BYTES);
    if (exponent == XOR) {
      long bits = Double.doubleToRawLongBits(value);
      writeTimestamp(timestamp);
      writeXor(bits ^ lastValue);
      lastValue = bits;
      size++;
      return;
    }
    long m = ValueEncoding.mantissa(value, exponent);
    if (m == ValueEncoding.NOT_DECIMAL) {
      repackFor(timestamp, value);
      return;
    }
    writeTimestamp(timestamp);
    writeZigZag(m - lastValue);
    lastValue = m;
    size++;
  }

  public void addLong(long timestamp, long value) {
    if (type != ValueType.LONG) {
      throw new IllegalStateException(type + " points take no longs");
    }
    ensure(MAX_POINT_BYTES);
    writeTimestamp(timestamp);
    writeZigZag(value - lastValue);
    lastValue = value;
    size++;
  }

  /**
   * Adds doubles (or booleans as 0 and 1): point {@code at[i]} of the given columns for each
   * {@code i} from {@code from} to {@code to - 1}, or point {@code i} itself when {@code at} is null.
   */
  public void addDoubles(long[] timestamps, double[] values, int[] at, int from, int to) {
    ensure((to - from) * 4); // a guess at the run's room: growing point by point copies the array more
    for (int i = from; i < to; i++) {
      int point = at == null ? i : at[i];
      add(timestamps[point], values[point]);
    }
  }

  /** As {@link #addDoubles}, for longs. */
  public void addLongs(long[] timestamps, long[] longs, int[] at, int from, int to) {
    ensure((to - from) * 4);
    for (int i = from; i < to; i++) {
      int point = at == null ? i : at[i];
      addLong(timestamps[point], longs[point]);
    }
  }

  /**
   * As {@link #addDoubles} and {@link #addLongs}, from one column of 64-bit words: a double's raw
   * bits where these points hold doubles or booleans, the value itself where they hold longs.
   */
  public void addBits(long[] timestamps, long[] bits, int[] at, int from, int to) {
    if (type == ValueType.LONG) {
      addLongs(timestamps, bits, at, from, to);
      return;
    }
    ensure((to - from) * 4);
    for (int i = from; i < to; i++) {
      int point = at == null ? i : at[i];
      add(timestamps[point], Double.longBitsToDouble(bits[point]));
    }
  }

  /** Adds all given points of the same type, in their order. */
  public void addAll(Points points) {
    if (points.type() != type) {
      throw new IllegalArgumentException("cannot add " + points.type() + " points to " + type + " points");
    }
    if (type == ValueType.LONG) {
      addLongs(points.timestampArray(), points.longArray(), null, 0, points.size());
    } else {
      addDoubles(points.timestampArray(), points.valueArray(), null, 0, points.size());
    }
  }

  /**
   * Moves the points out into new packed points of exactly their size and empties these, keeping
   * the exponent and, up to {@code keepBytes}, the array: a buffer's array that outlives its
   * chunks stays where the collector put it, and storing a new one in a long-lived buffer made
   * the collector both copy it and scan the buffer at its next young collection.
   */
  public PackedPoints takeAll(int keepBytes) {
    PackedPoints taken = new PackedPoints(type, 0, exponent);
    taken.bytes = Arrays.copyOf(bytes, length);
    taken.length = length;
    taken.size = size;
    taken.lastTimestamp = lastTimestamp;
    taken.lastDelta = lastDelta;
    taken.minTimestamp = minTimestamp;
    taken.maxTimestamp = maxTimestamp;
    taken.exponent = exponent;
    taken.lastValue = lastValue;
    if (bytes.length > keepBytes) {
      bytes = new byte[Math.min(length, keepBytes)];
    }
    clear();
    exponent = Math.max(0, exponent); // after the XOR form, the decimal one again: repacking none costs nothing
    return taken;
  }

  private void clear() {
    length = 0;
    size = 0;
    lastTimestamp = 0;
    lastDelta = 0;
    lastValue = 0;
    minTimestamp = Long.MAX_VALUE;
    maxTimestamp = Long.MIN_VALUE;
  }

  /** The points unpacked, in the order they were added, into arrays of their own. */
  public Points unpack() {
    long[] timestamps = new long[size];
    if (type == ValueType.LONG) {
      long[] longs = new long[size];
      unpackInto(timestamps, longs, null);
      return Points.wrapLongs(timestamps, longs, size);
    }
    double[] values = new double[size];
    unpackInto(timestamps, null, values);
    return Points.wrap(type, timestamps, values, size);
  }

  /** Appends the points, in the order they were added, to points of the same type. */
  public void addTo(Points target) {
    if (target.type() != type) {
      throw new IllegalArgumentException("cannot add " + type + " points to " + target.type() + " points");
    }
    target.addAll(unpack());
  }

  private void unpackInto(long[] timestamps, long[] longs, double[] values) {
    ByteReader in = new ByteReader(bytes, 0, length);
    long timestamp = 0;
    long delta = 0;
    long value = 0;
    double scale = exponent > 0 ? ValueEncoding.powerOfTen(exponent) : 1;
    for (int i = 0; i < size; i++) {
      delta += in.readZigZag();
      timestamp += delta;
      timestamps[i] = timestamp;
      if (exponent == XOR) {
        value ^= ValueEncoding.readXor(in);
        values[i] = Double.longBitsToDouble(value);
        continue;
      }
      value += in.readZigZag();
      if (longs != null) {
        longs[i] = value;
      } else {
        values[i] = exponent == 0 ? value : value / scale;
      }
    }
  }

  /** A value the current form cannot hold: every point again in one that holds it as well. */
  private void repackFor(long timestamp, double value) {
    Points all = unpack();
    all.add(timestamp, value);
    double[] values = all.valueArray();
    int wider = ValueEncoding.decimalExponent(values, all.size());
    clear();
    exponent = wider < 0 ? XOR : wider;
    addDoubles(all.timestampArray(), values, null, 0, all.size());
  }

  private void writeTimestamp(long timestamp) {
    long delta = timestamp - lastTimestamp;
    minTimestamp = Math.min(minTimestamp, timestamp);
    maxTimestamp = Math.max(maxTimestamp, timestamp);
    writeZigZag(delta - lastDelta);
    lastDelta = delta;
    lastTimestamp = timestamp;
  }

  /**
   * Written here rather than through {@link ByteWriter}, which doubles its array: a point at a time
   * on the ingest path, into an array grown by a quarter that a buffer keeps between its chunks.
   */
  private void writeZigZag(long signed) {
    long value = (signed << 1) ^ (signed >> 63);
    byte[] b = bytes;
    int at = length;
    while ((value & ~0x7FL) != 0) {
      b[at++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[at++] = (byte) value;
    length = at;
  }

  private void writeXor(long xor) {
    byte[] b = bytes;
    int at = length;
    if (xor == 0) {
      b[at] = (byte) (8 << 4);
      length = at + 1;
      return;
    }
    int leading = Long.numberOfLeadingZeros(xor) >>> 3;
    int trailing = Long.numberOfTrailingZeros(xor) >>> 3;
    b[at++] = (byte) (leading << 4 | trailing);
    for (int shift = 56 - 8 * leading; shift >= 8 * trailing; shift -= 8) {
      b[at++] = (byte) (xor >>> shift);
    }
    length = at;
  }

  /**
   * Room for {@code extra} more bytes, grown by a quarter at least: at the worst 19-20 bytes a
   * point (irregular timestamps, values of many digits, random longs), the array stays about the 24
   * bytes a point that buffers count.
   */
  private void ensure(int extra) {
    if (length + extra > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(length + extra, bytes.length + (bytes.length >> 2)));
    }
  }
}
