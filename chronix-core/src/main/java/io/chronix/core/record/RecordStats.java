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
    return of(points.valueArray(), n); // longs converted, strings and arrays as NaN
  }

  /**
   * Over the value array itself and with min and max spelt out (as {@link Math#min} and
   * {@link Math#max} order -0.0 and 0.0): a query's aggregation over a record its range cuts runs
   * here, and the server's quick JIT compiler inlines neither {@code Points.value} nor Math's
   * methods.
   */
  private static RecordStats of(double[] values, int n) {
    double min = Double.NaN;
    double max = Double.NaN;
    double sum = 0;
    boolean any = false;
    for (int i = 0; i < n; i++) {
      double value = values[i];
      if (value != value) { // NaN
        continue;
      }
      if (!any) {
        min = value;
        max = value;
        any = true;
      } else {
        if (value < min || (value == 0.0 && min == 0.0 && Double.doubleToRawLongBits(value) != 0)) {
          min = value;
        }
        if (value > max || (value == 0.0 && max == 0.0 && Double.doubleToRawLongBits(max) != 0)) {
          max = value;
        }
      }
      sum += value;
    }
    return new RecordStats(n, min, max, any ? sum : Double.NaN, values[0], values[n - 1]);
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
