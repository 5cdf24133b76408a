package io.chronix.core.record;

import io.chronix.core.series.Points;

/**
 * Statistics of one chunk, stored beside the blob so that simple aggregations need not decode it.
 * NaN values are counted but take no part in min, max and sum.
 */
public record RecordStats(long count, double min, double max, double sum, double first, double last) {

  public static RecordStats of(Points points) {
    int n = points.size();
    if (n == 0) {
      throw new IllegalArgumentException("a record holds at least one point");
    }
    double min = Double.NaN;
    double max = Double.NaN;
    double sum = 0;
    boolean any = false;
    for (int i = 0; i < n; i++) {
      double value = points.value(i);
      if (Double.isNaN(value)) {
        continue;
      }
      if (!any) {
        min = value;
        max = value;
        any = true;
      } else {
        min = Math.min(min, value);
        max = Math.max(max, value);
      }
      sum += value;
    }
    return new RecordStats(n, min, max, any ? sum : Double.NaN, points.value(0), points.value(n - 1));
  }

  /**
   * The statistics of this span's points followed by a later span's, the two sharing no
   * timestamp: what the points of both together would give, except that the sum adds two partial
   * sums, which may differ from one running sum in the last bits.
   */
  public RecordStats followedBy(RecordStats later) {
    return new RecordStats(count + later.count, ignoringNaN(min, later.min, Math::min),
        ignoringNaN(max, later.max, Math::max), ignoringNaN(sum, later.sum, Double::sum), first, later.last);
  }

  /** NaN stands for "no value" here: the other side wins; two values combine. */
  private static double ignoringNaN(double a, double b, java.util.function.DoubleBinaryOperator combine) {
    if (Double.isNaN(a)) {
      return b;
    }
    return Double.isNaN(b) ? a : combine.applyAsDouble(a, b);
  }
}
