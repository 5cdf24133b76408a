package io.chronix.core.codec;

/**
 * Date-Delta Compaction (DDC) of timestamps, as in the Chronix paper, written as a
 * delta-of-delta stream.
 *
 * <p>A timestamp whose delta to the previous (reconstructed) timestamp equals the previous delta
 * within {@code threshold} is omitted: it is written as a zero and the reader assumes the previous
 * delta again. Otherwise the real delta is stored, measured from the reconstructed previous
 * timestamp, so the error never accumulates: every reconstructed timestamp lies within
 * {@code threshold} of the real one (drift is bounded and corrected), and the last one is exact.
 * With threshold 0 the encoding is lossless.
 *
 * <p>Layout: zig-zag varint first timestamp, one byte {@code e} (every delta is a multiple of
 * 10^e, so millisecond data in nanoseconds costs no more than in milliseconds), then n-1 zig-zag
 * varints of the delta change in units of 10^e.
 */
public final class DateDeltaCompaction {

  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private DateDeltaCompaction() {}

  public static void encode(long[] timestamps, int n, long threshold, ByteWriter out) {
    if (threshold < 0) {
      throw new IllegalArgumentException("DDC threshold must not be negative: " + threshold);
    }
    if (n == 0) {
      return;
    }
    out.writeZigZag(timestamps[0]);
    int exponent = commonExponent(timestamps, n);
    out.writeByte(exponent);
    long unit = POWERS_OF_TEN[exponent];
    long scaledThreshold = threshold / unit;
    long reconstructed = timestamps[0];
    long previousDelta = 0;
    for (int i = 1; i < n; i++) {
      long expected = reconstructed + previousDelta * unit;
      long tolerance = i == n - 1 ? 0 : scaledThreshold * unit;
      if (withinTolerance(timestamps[i], expected, tolerance)) {
        out.writeByte(0);
        reconstructed = expected;
      } else {
        long delta = (timestamps[i] - reconstructed) / unit;
        out.writeZigZag(delta - previousDelta);
        previousDelta = delta;
        reconstructed = timestamps[i];
      }
    }
  }

  public static long[] decode(ByteReader in, int n) {
    long[] timestamps = new long[n];
    decode(in, n, timestamps, 0);
    return timestamps;
  }

  /** Decodes n timestamps into {@code into[offset]} onwards. */
  public static void decode(ByteReader in, int n, long[] into, int offset) {
    if (n == 0) {
      return;
    }
    long current = in.readZigZag();
    into[offset] = current;
    int exponent = in.readByte();
    if (exponent >= POWERS_OF_TEN.length) {
      throw new CorruptBlobException("timestamp unit exponent out of range: " + exponent);
    }
    long unit = POWERS_OF_TEN[exponent];
    in.readZigZags(into, offset + 1, n - 1); // the delta changes, turned into timestamps in place
    long delta = 0;
    for (int i = offset + 1, end = offset + n; i < end; i++) {
      delta += into[i];
      current += delta * unit;
      into[i] = current;
    }
  }

  private static boolean withinTolerance(long actual, long expected, long tolerance) {
    if (tolerance == 0) {
      return actual == expected; // also right where the arithmetic wrapped around
    }
    try {
      long error = Math.subtractExact(actual, expected);
      return error >= -tolerance && error <= tolerance;
    } catch (ArithmeticException overflow) {
      return false;
    }
  }

  /** The largest e such that every delta is a multiple of 10^e (0 when all deltas are 0). */
  static int commonExponent(long[] timestamps, int n) {
    int exponent = POWERS_OF_TEN.length - 1;
    boolean anyDelta = false;
    for (int i = 1; i < n && exponent > 0; i++) {
      long delta;
      try {
        delta = Math.subtractExact(timestamps[i], timestamps[i - 1]);
      } catch (ArithmeticException overflow) {
        return 0; // unit 1 stays exact under wrap-around arithmetic, larger units do not
      }
      if (delta == 0) {
        continue;
      }
      anyDelta = true;
      while (exponent > 0 && delta % POWERS_OF_TEN[exponent] != 0) {
        exponent--;
      }
    }
    return anyDelta ? exponent : 0;
  }
}
