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

  /** One step of the sum as a pure function, for callers that keep sum and compensation apart. */
  static double[] inc(double value, double sum, double compensation) {
    KahanSum k = new KahanSum();
    k.sum = sum;
    k.compensation = compensation;
    k.add(value);
    return new double[] {k.sum, k.compensation};
  }
}
