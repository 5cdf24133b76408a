package io.chronix.core.codec;

/**
 * A thread's arrays for decoding blocks whose points are then copied out in part (a range's cut):
 * kept between decodes so that the points not wanted cost no allocation. Ranges beyond
 * {@link #MAX_POINTS} get arrays of their own, so that no thread keeps more than a megabyte.
 */
final class DecodeScratch {

  static final int MAX_POINTS = 1 << 16;
  private static final ThreadLocal<DecodeScratch> PER_THREAD = ThreadLocal.withInitial(() -> new DecodeScratch(0));

  private final long[] timestamps;
  private final double[] values;

  private DecodeScratch(int points) {
    this.timestamps = new long[points];
    this.values = new double[points];
  }

  /** Arrays for at least {@code points} points: the thread's own, or new ones for more than {@link #MAX_POINTS}. */
  static DecodeScratch forPoints(int points) {
    if (points > MAX_POINTS) {
      return new DecodeScratch(points);
    }
    DecodeScratch scratch = PER_THREAD.get();
    if (scratch.timestamps.length < points) {
      // grown to a power of two: a few sizes over a thread's life
      scratch = new DecodeScratch(Math.min(MAX_POINTS, Integer.highestOneBit(Math.max(1, points - 1)) << 1));
      PER_THREAD.set(scratch);
    }
    return scratch;
  }

  long[] timestamps() {
    return timestamps;
  }

  double[] values() {
    return values;
  }
}
