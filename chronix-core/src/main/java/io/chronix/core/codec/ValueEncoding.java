package io.chronix.core.codec;

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
 */
public final class ValueEncoding {

  static final int DECIMAL = 0;
  static final int XOR = 1;
  private static final int MAX_DECIMAL_EXPONENT = 15;
  private static final double MAX_EXACT_INTEGER = 0x1p53;
  private static final double[] POWERS_OF_TEN = new double[MAX_DECIMAL_EXPONENT + 1];

  static {
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = Math.pow(10, i); // exact: 10^15 < 2^53
    }
  }

  private ValueEncoding() {}

  public static void encode(double[] values, int n, ByteWriter out) {
    if (n == 0) {
      return;
    }
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

  public static double[] decode(ByteReader in, int n) {
    double[] values = new double[n];
    if (n == 0) {
      return values;
    }
    int mode = in.readByte();
    if (mode == DECIMAL) {
      int exponent = in.readByte();
      if (exponent > MAX_DECIMAL_EXPONENT) {
        throw new CorruptBlobException("decimal exponent out of range: " + exponent);
      }
      double scale = POWERS_OF_TEN[exponent];
      long mantissa = 0;
      for (int i = 0; i < n; i++) {
        mantissa += in.readZigZag();
        values[i] = exponent == 0 ? (double) mantissa : mantissa / scale;
      }
    } else if (mode == XOR) {
      long previous = 0;
      for (int i = 0; i < n; i++) {
        previous ^= readXor(in);
        values[i] = Double.longBitsToDouble(previous);
      }
    } else {
      throw new CorruptBlobException("unknown value encoding mode " + mode);
    }
    return values;
  }

  /** The smallest k for which every value is exactly m / 10^k, or -1 when there is none. */
  static int decimalExponent(double[] values, int n) {
    int exponent = 0;
    for (int i = 0; i < n; i++) {
      double value = values[i];
      while (!representable(value, exponent)) {
        if (++exponent > MAX_DECIMAL_EXPONENT) {
          return -1;
        }
      }
    }
    // a larger k found later must hold for the earlier values too
    for (int i = 0; i < n; i++) {
      if (!representable(values[i], exponent)) {
        return -1;
      }
    }
    return exponent;
  }

  private static boolean representable(double value, int exponent) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return false;
    }
    if (value == 0) {
      return Double.doubleToRawLongBits(value) == 0; // -0.0 would come back as +0.0
    }
    double scale = POWERS_OF_TEN[exponent];
    double mantissa = Math.rint(value * scale);
    if (Math.abs(mantissa) > MAX_EXACT_INTEGER) {
      return false;
    }
    return (exponent == 0 ? mantissa : mantissa / scale) == value;
  }

  private static void writeXor(long xor, ByteWriter out) {
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

  private static long readXor(ByteReader in) {
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
