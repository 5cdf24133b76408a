package io.chronix.analysis.promql.engine;

/**
 * Compensated (Kahan-Babuska-Neumaier) summation, which Prometheus uses for sums and means so that
 * adding many values loses little precision; results must match its within a few ulps.
 */
final class KahanSum {

  double sum;
  double compensation;

  void add(double value) {
    double t = sum + value;
    if (Double.isInfinite(t)) {
      compensation = 0;
    } else if (Math.abs(sum) >= Math.abs(value)) {
      compensation += (sum - t) + value;
    } else {
      compensation += (value - t) + sum;
    }
    sum = t;
  }

  double value() {
    return Double.isInfinite(sum) ? sum : sum + compensation;
  }

  /**
   * The compensation after adding {@code value} to {@code sum} (the sum becomes {@code sum +
   * value}), as {@link #add} computes it, for callers that keep sum and compensation apart. It
   * returned both in a new array: two allocations an added value, which the quick compiler's code
   * cannot avoid, over every series and step of a {@code sum by}.
   */
  static double compensation(double value, double sum, double compensation) {
    double t = sum + value;
    if (Double.isInfinite(t)) {
      return 0;
    } else if (Math.abs(sum) >= Math.abs(value)) {
      return compensation + ((sum - t) + value);
    } else {
      return compensation + ((value - t) + sum);
    }
  }
}
