package io.chronix.solr.query;

import java.util.Locale;

/**
 * The most points one query may decode, from the configset's {@code maxDecodedPoints}: a count, or
 * {@code auto}, one point for every 64 bytes of the JVM's heap (5.6 M points with the launcher's
 * 384 MB, of which the JVM reports 341 MB).
 *
 * <p>A decoded point takes 16 bytes (its timestamp and value), and about as much again while
 * records of one series are merged. The fixed default before, 50 M points, let one query over all
 * of a 16 M-point store run the default heap out of memory (an error 500 and a server that had to
 * be restarted; docs/benchmarks.md): the launcher's heap held 8.8 M points beside the buffers and
 * the record cache, but not 11.8 M. At a 64th the decoded points of one query take at most a
 * quarter of the heap, and a larger heap allows proportionally more.
 */
public final class DecodedPointsLimit {

  public static final String AUTO = "auto";
  private static final long HEAP_BYTES_A_POINT = 64;
  /** Where the JVM reports no heap limit: the fixed limit of before. */
  private static final long UNBOUNDED_HEAP_POINTS = 50_000_000L;

  private DecodedPointsLimit() {}

  /** A point for every 64 bytes of this JVM's maximum heap. */
  public static long auto() {
    return ofHeap(Runtime.getRuntime().maxMemory());
  }

  static long ofHeap(long maxHeapBytes) {
    return maxHeapBytes == Long.MAX_VALUE ? UNBOUNDED_HEAP_POINTS : maxHeapBytes / HEAP_BYTES_A_POINT;
  }

  /**
   * The limit in points.
   *
   * @throws IllegalArgumentException unless the setting is {@code auto} or a whole number above 0
   */
  public static long parse(String setting) {
    String value = setting.trim();
    if (value.toLowerCase(Locale.ROOT).equals(AUTO)) {
      return auto();
    }
    long points;
    try {
      points = Long.parseLong(value);
    } catch (NumberFormatException e) {
      points = 0;
    }
    if (points <= 0) {
      throw new IllegalArgumentException("maxDecodedPoints must be 'auto' or a whole number of points above 0, not '"
          + setting + "'");
    }
    return points;
  }
}
