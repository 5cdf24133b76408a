package io.chronix.core.codec;

/**
 * Value mode 5 of {@link ValueEncoding}: the values of array points (docs/formats.md).
 *
 * <pre>
 *   runs of equal lengths, until they cover the n points: varint length, varint points in the run
 *   if the arrays hold any element:
 *     byte   form: 0 decimal, 1 xor
 *     decimal: byte k, then per element (point by point, position by position) the zigzag varint
 *              change of m = value * 10^k against the latest element at the same position (0 if none)
 *     xor:     per element the XOR entry of its bits against the latest element at the same position
 * </pre>
 */
final class ArrayValues {

  private static final int DECIMAL = 0;
  private static final int XOR = 1;

  private ArrayValues() {}

  static void encode(double[][] arrays, int n, ByteWriter out) {
    out.writeByte(ValueEncoding.ARRAY);
    int total = 0;
    int widest = 0;
    int run = 0;
    for (int i = 0; i < n; i++) {
      int length = arrays[i].length;
      total += length;
      widest = Math.max(widest, length);
      run++;
      if (i == n - 1 || arrays[i + 1].length != length) {
        out.writeVarLong(length);
        out.writeVarLong(run);
        run = 0;
      }
    }
    if (total == 0) {
      return;
    }
    double[] flat = new double[total];
    int at = 0;
    for (int i = 0; i < n; i++) {
      System.arraycopy(arrays[i], 0, flat, at, arrays[i].length);
      at += arrays[i].length;
    }
    int exponent = ValueEncoding.decimalExponent(flat, total);
    long[] latest = new long[widest];
    if (exponent >= 0) {
      out.writeByte(DECIMAL);
      out.writeByte(exponent);
      double scale = ValueEncoding.powerOfTen(exponent);
      for (int i = 0; i < n; i++) {
        double[] array = arrays[i];
        for (int k = 0; k < array.length; k++) {
          long mantissa = (long) Math.rint(array[k] * scale);
          out.writeZigZag(mantissa - latest[k]);
          latest[k] = mantissa;
        }
      }
    } else {
      out.writeByte(XOR);
      for (int i = 0; i < n; i++) {
        double[] array = arrays[i];
        for (int k = 0; k < array.length; k++) {
          long bits = Double.doubleToRawLongBits(array[k]);
          ValueEncoding.writeXor(bits ^ latest[k], out);
          latest[k] = bits;
        }
      }
    }
  }

  static double[][] decode(ByteReader in, int n) {
    double[][] arrays = new double[n][];
    long total = 0;
    int widest = 0;
    int i = 0;
    while (i < n) {
      long length = in.readVarLong();
      long run = in.readVarLong();
      if (run <= 0 || run > n - i) {
        throw new CorruptBlobException("run of " + run + " arrays at point " + i + " of " + n);
      }
      total += length * run;
      // every element takes a byte at least: lengths beyond the bytes left are damage, not data
      if (length < 0 || length > in.remaining() || total > in.remaining()) {
        throw new CorruptBlobException("arrays of " + length + " elements at point " + i
            + " do not fit the " + in.remaining() + " bytes left");
      }
      for (long r = 0; r < run; r++) {
        arrays[i++] = new double[(int) length];
      }
      widest = Math.max(widest, (int) length);
    }
    if (total == 0) {
      return arrays;
    }
    int form = in.readByte();
    if (form == DECIMAL) {
      int exponent = in.readByte();
      if (exponent > ValueEncoding.maxDecimalExponent()) {
        throw new CorruptBlobException("decimal exponent out of range: " + exponent);
      }
      double scale = ValueEncoding.powerOfTen(exponent);
      long[] latest = new long[widest];
      for (double[] array : arrays) {
        for (int k = 0; k < array.length; k++) {
          latest[k] += in.readZigZag();
          array[k] = exponent == 0 ? (double) latest[k] : latest[k] / scale;
        }
      }
    } else if (form == XOR) {
      long[] latest = new long[widest];
      for (double[] array : arrays) {
        for (int k = 0; k < array.length; k++) {
          latest[k] ^= ValueEncoding.readXor(in);
          array[k] = Double.longBitsToDouble(latest[k]);
        }
      }
    } else {
      throw new CorruptBlobException("unknown array value form " + form);
    }
    return arrays;
  }
}
