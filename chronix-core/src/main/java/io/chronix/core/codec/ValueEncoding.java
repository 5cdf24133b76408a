package io.chronix.core.codec;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;

/**
 * Lossless encoding of a chunk's values, chosen per chunk.
 *
 * <ul>
 *   <li>{@code DECIMAL} (mode 0): every value equals m / 10^k for one k and integers m with
 *       |m| &lt;= 2^53 (integer counters, byte sizes, one-decimal percentages). Written as k and
 *       zig-zag varint deltas of m, so a repeated value costs one zero byte before compression.
 *   <li>{@code XOR} (mode 1): anything else (NaN, infinities, -0.0, many digits). Each value is
 *       XORed with the previous one and only the bytes between leading and trailing zero bytes
 *       are written, behind a header byte (leading zero bytes &lt;&lt; 4 | trailing zero bytes).
 * </ul>
 *
 * <p>Decoding the DECIMAL form divides m by 10^k exactly as the encoder checked it, so values
 * come back bit for bit.
 *
 * <p>Series of other value types have a mode of their own, which also tells the decoder the type:
 * {@code LONG} (mode 2) zig-zag varint deltas; {@code BOOLEAN} (mode 3) the first value as a
 * byte, then varint lengths of alternating runs; {@code STRING} (mode 4) a dictionary (varint size,
 * then length-prefixed UTF-8 strings) and one varint index a point; {@code ARRAY} (mode 5) runs of
 * equal array lengths (varint length, varint points), then all elements in the DECIMAL or XOR form, each
 * element against the same position of the latest array that had it: vectors change little from
 * one point to the next position by position, not from one position to the next.
 */
public final class ValueEncoding {

  static final int DECIMAL = 0;
  static final int XOR = 1;
  static final int LONG = 2;
  static final int BOOLEAN = 3;
  static final int STRING = 4;
  static final int ARRAY = 5;
  /** What {@link #mantissa} answers for a value no m / 10^k is: no such m has |m| &lt;= 2^53. */
  static final long NOT_DECIMAL = Long.MIN_VALUE;
  private static final int MAX_DECIMAL_EXPONENT = 15;
  private static final double MAX_EXACT_INTEGER = 0x1p53;
  private static final double[] POWERS_OF_TEN = new double[MAX_DECIMAL_EXPONENT + 1];

  static {
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = Math.pow(10, i); // exact: 10^15 < 2^53
    }
  }

  private ValueEncoding() {}

  public static void encode(Points points, ByteWriter out) {
    int n = points.size();
    if (n == 0) {
      return;
    }
    switch (points.type()) {
      case LONG:
        encodeLongs(points.longArray(), n, out);
        return;
      case BOOLEAN:
        encodeBooleans(points, n, out);
        return;
      case STRING:
        encodeStrings(points.textArray(), n, out);
        return;
      case ARRAY:
        ArrayValues.encode(points.arrayArray(), n, out);
        return;
      default:
        encodeDoubles(points.valueArray(), n, out);
    }
  }

  private static void encodeLongs(long[] longs, int n, ByteWriter out) {
    out.writeByte(LONG);
    long previous = 0;
    for (int i = 0; i < n; i++) {
      out.writeZigZag(longs[i] - previous);
      previous = longs[i];
    }
  }

  private static void encodeBooleans(Points points, int n, ByteWriter out) {
    out.writeByte(BOOLEAN);
    boolean current = points.booleanValue(0);
    out.writeByte(current ? 1 : 0);
    int run = 0;
    for (int i = 0; i < n; i++) {
      if (points.booleanValue(i) == current) {
        run++;
      } else {
        out.writeVarLong(run);
        current = !current;
        run = 1;
      }
    }
    out.writeVarLong(run);
  }

  private static void encodeStrings(String[] texts, int n, ByteWriter out) {
    out.writeByte(STRING);
    java.util.Map<String, Integer> dictionary = new java.util.LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      dictionary.putIfAbsent(texts[i], dictionary.size());
    }
    out.writeVarLong(dictionary.size());
    for (String text : dictionary.keySet()) {
      byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      out.writeVarLong(bytes.length);
      for (byte b : bytes) {
        out.writeByte(b);
      }
    }
    for (int i = 0; i < n; i++) {
      out.writeVarLong(dictionary.get(texts[i]));
    }
  }

  private static void encodeDoubles(double[] values, int n, ByteWriter out) {
    int exponent = decimalExponent(values, n);
    if (exponent >= 0) {
      out.writeByte(DECIMAL);
      out.writeByte(exponent);
      double scale = POWERS_OF_TEN[exponent];
      long previous = 0;
      for (int i = 0; i < n; i++) {
        long mantissa = (long) Math.rint(values[i] * scale);
        out.writeZigZag(mantissa - previous);
        previous = mantissa;
      }
    } else {
      out.writeByte(XOR);
      long previous = 0;
      for (int i = 0; i < n; i++) {
        long bits = Double.doubleToRawLongBits(values[i]);
        writeXor(bits ^ previous, out);
        previous = bits;
      }
    }
  }

  /** The values of n points, typed by the mode the encoder chose. */
  public static Points decode(ByteReader in, long[] timestamps, int n) {
    return decode(in, timestamps, n, n);
  }

  /**
   * The first {@code wanted} of n points (a query's range ends before the chunk does): numbers are
   * read only that far, the values after them are left unread. The other types are decoded whole.
   */
  public static Points decode(ByteReader in, long[] timestamps, int n, int wanted) {
    if (wanted < 0 || wanted > n) {
      throw new IllegalArgumentException(wanted + " of " + n + " points");
    }
    if (n == 0) {
      return Points.wrap(timestamps, new double[0], 0);
    }
    int mode = in.readByte();
    switch (mode) {
      case LONG:
        return Points.wrapLongs(timestamps, decodeLongs(in, wanted), wanted);
      case BOOLEAN:
        return Points.wrap(ValueType.BOOLEAN, timestamps, decodeBooleans(in, n), wanted);
      case STRING:
        return Points.wrapTexts(timestamps, decodeStrings(in, n), wanted);
      case ARRAY:
        return Points.wrapArrays(timestamps, ArrayValues.decode(in, n), wanted);
      default:
        return Points.wrap(timestamps, decodeDoubles(in, mode, wanted), wanted);
    }
  }

  /** Whether values written in this mode are numbers or booleans. */
  static boolean isNumeric(int mode) {
    return mode != STRING && mode != ARRAY;
  }

  /**
   * The values of n points as doubles (longs converted, booleans as 0 and 1), read to their end,
   * or null when they are strings or arrays (left unread then): statistics need no timestamps.
   */
  public static double[] decodeNumbers(ByteReader in, int n) {
    if (n == 0) {
      return new double[0];
    }
    int mode = in.readByte();
    switch (mode) {
      case LONG: {
        long[] longs = decodeLongs(in, n);
        double[] numbers = new double[n];
        for (int i = 0; i < n; i++) {
          numbers[i] = longs[i];
        }
        return numbers;
      }
      case BOOLEAN:
        return decodeBooleans(in, n);
      case STRING:
      case ARRAY:
        return null;
      default:
        return decodeDoubles(in, mode, n);
    }
  }

  /** The first {@code n} longs: their changes read, summed in place. */
  private static long[] decodeLongs(ByteReader in, int n) {
    long[] longs = new long[n];
    in.readZigZags(longs, 0, n);
    long current = 0;
    for (int i = 0; i < n; i++) {
      current += longs[i];
      longs[i] = current;
    }
    return longs;
  }

  private static double[] decodeBooleans(ByteReader in, int n) {
    double[] values = new double[n];
    double current = in.readByte() == 0 ? 0 : 1;
    int i = 0;
    while (i < n) {
      long run = in.readVarLong();
      if (run <= 0 || run > n - i) {
        throw new CorruptBlobException("boolean run of " + run + " at point " + i + " of " + n);
      }
      for (long r = 0; r < run; r++) {
        values[i++] = current;
      }
      current = 1 - current;
    }
    return values;
  }

  private static String[] decodeStrings(ByteReader in, int n) {
    long size = in.readVarLong();
    if (size <= 0 || size > n) {
      throw new CorruptBlobException("string dictionary of " + size + " entries for " + n + " points");
    }
    String[] dictionary = new String[(int) size];
    for (int d = 0; d < size; d++) {
      dictionary[d] = in.readUtf8(in.readVarLong());
    }
    String[] texts = new String[n];
    for (int i = 0; i < n; i++) {
      long index = in.readVarLong();
      if (index < 0 || index >= size) {
        throw new CorruptBlobException("string index " + index + " outside a dictionary of " + size);
      }
      texts[i] = dictionary[(int) index];
    }
    return texts;
  }

  private static double[] decodeDoubles(ByteReader in, int mode, int n) {
    double[] values = new double[n];
    decodeDoubles(in, mode, n, values, 0);
    return values;
  }

  private static void decodeDoubles(ByteReader in, int mode, int n, double[] into, int offset) {
    if (mode == DECIMAL) {
      int exponent = in.readByte();
      if (exponent > MAX_DECIMAL_EXPONENT) {
        throw new CorruptBlobException("decimal exponent out of range: " + exponent);
      }
      in.readDecimals(into, offset, n, POWERS_OF_TEN[exponent]);
    } else if (mode == XOR) {
      long previous = 0;
      for (int i = offset, end = offset + n; i < end; i++) {
        previous ^= readXor(in);
        into[i] = Double.longBitsToDouble(previous);
      }
    } else {
      throw new CorruptBlobException("unknown value encoding mode " + mode);
    }
  }

  /**
   * The first {@code count} of {@code n} values written as doubles into {@code into[offset]}
   * onwards, the rest left unread; false, having read only the mode, where they were written as
   * another type.
   */
  static boolean decodeDoublesPrefix(ByteReader in, int n, int count, double[] into, int offset) {
    if (n == 0) {
      return true;
    }
    int mode = in.readByte();
    if (mode != DECIMAL && mode != XOR) {
      return false;
    }
    decodeDoubles(in, mode, count, into, offset);
    return true;
  }

  /** The smallest k for which every value is exactly m / 10^k, or -1 when there is none. */
  static int decimalExponent(double[] values, int n) {
    int exponent = 0;
    int checkedFrom = 0; // the values from here on were found representable with the final k
    for (int i = 0; i < n; i++) {
      double value = values[i];
      while (!representable(value, exponent)) {
        if (++exponent > MAX_DECIMAL_EXPONENT) {
          return -1;
        }
        checkedFrom = i;
      }
    }
    // a larger k found later must hold for the earlier values too (only those: integers, the
    // usual case, are checked once)
    for (int i = 0; i < checkedFrom; i++) {
      if (!representable(values[i], exponent)) {
        return -1;
      }
    }
    return exponent;
  }

  static double powerOfTen(int exponent) {
    return POWERS_OF_TEN[exponent];
  }

  static int maxDecimalExponent() {
    return MAX_DECIMAL_EXPONENT;
  }

  private static boolean representable(double value, int exponent) {
    return mantissa(value, exponent) != NOT_DECIMAL;
  }

  /**
   * The integer m with {@code value == m / 10^exponent} exactly, as decoding divides it, or
   * {@link #NOT_DECIMAL} when there is none.
   */
  static long mantissa(double value, int exponent) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return NOT_DECIMAL;
    }
    if (value == 0) {
      return Double.doubleToRawLongBits(value) == 0 ? 0 : NOT_DECIMAL; // -0.0 would come back as +0.0
    }
    double scale = POWERS_OF_TEN[exponent];
    double mantissa = Math.rint(value * scale);
    if (Math.abs(mantissa) > MAX_EXACT_INTEGER) {
      return NOT_DECIMAL;
    }
    return (exponent == 0 ? mantissa : mantissa / scale) == value ? (long) mantissa : NOT_DECIMAL;
  }

  static void writeXor(long xor, ByteWriter out) {
    if (xor == 0) {
      out.writeByte(8 << 4);
      return;
    }
    int leading = Long.numberOfLeadingZeros(xor) >>> 3;
    int trailing = Long.numberOfTrailingZeros(xor) >>> 3;
    out.writeByte(leading << 4 | trailing);
    for (int shift = 56 - 8 * leading; shift >= 8 * trailing; shift -= 8) {
      out.writeByte((int) (xor >>> shift));
    }
  }

  static long readXor(ByteReader in) {
    int header = in.readByte();
    int leading = header >>> 4;
    int trailing = header & 0x0F;
    if (leading + trailing > 8) {
      throw new CorruptBlobException("bad XOR header " + header);
    }
    long xor = 0;
    for (int i = leading + trailing; i < 8; i++) {
      xor = (xor << 8) | in.readByte();
    }
    return xor << (8 * trailing);
  }
}
