package io.chronix.analysis.promql.engine;

import java.util.Arrays;

/** Prometheus' quantile estimate: linear interpolation between the two closest ranks. */
final class Quantiles {

  private Quantiles() {}

  /** NaN values sort first, as in Prometheus; sorts {@code values} in place. */
  static double of(double q, double[] values, int n) {
    if (n == 0 || Double.isNaN(q)) {
      return Double.NaN;
    }
    if (q < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (q > 1) {
      return Double.POSITIVE_INFINITY;
    }
    sortNaNFirst(values, n);
    double rank = q * (n - 1);
    double lower = Math.max(0, Math.floor(rank));
    double upper = Math.min(n - 1, lower + 1);
    double weight = rank - Math.floor(rank);
    return values[(int) lower] * (1 - weight) + values[(int) upper] * weight;
  }

  static void sortNaNFirst(double[] values, int n) {
    Arrays.sort(values, 0, n); // Java sorts NaN last
    int nans = 0;
    while (nans < n && Double.isNaN(values[n - 1 - nans])) {
      nans++;
    }
    if (nans > 0) {
      System.arraycopy(values, 0, values, nans, n - nans);
      Arrays.fill(values, 0, nans, Double.NaN);
    }
  }
}
