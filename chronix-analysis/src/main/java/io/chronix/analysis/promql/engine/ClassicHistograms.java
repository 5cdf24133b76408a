package io.chronix.analysis.promql.engine;

import java.util.Arrays;

/**
 * Quantiles and fractions of classic histograms: cumulative bucket counts by upper bound
 * ({@code le}), the last one +Inf. After Prometheus' BucketQuantile: buckets sorted and coalesced,
 * tiny (float noise) and negative differences between neighbours evened out, linear interpolation
 * within a bucket, 0 as the lower bound of a first bucket with a positive upper bound.
 */
final class ClassicHistograms {

  private static final double SMALL_DELTA = 1e-12;

  private ClassicHistograms() {}

  /** Result of a quantile estimate; {@code forcedMonotonic} when counts had to be evened out. */
  record Quantile(double value, boolean forcedMonotonic) {}

  static Quantile quantile(double q, double[] upperBounds, double[] counts, int n) {
    if (Double.isNaN(q)) {
      return new Quantile(Double.NaN, false);
    }
    if (q < 0) {
      return new Quantile(Double.NEGATIVE_INFINITY, false);
    }
    if (q > 1) {
      return new Quantile(Double.POSITIVE_INFINITY, false);
    }
    double[][] buckets = sortedCoalesced(upperBounds, counts, n);
    double[] bounds = buckets[0];
    double[] cumulative = buckets[1];
    int size = bounds.length;
    if (size == 0 || !(bounds[size - 1] == Double.POSITIVE_INFINITY)) {
      return new Quantile(Double.NaN, false);
    }
    boolean forced = evenOut(cumulative);
    if (size < 2) {
      return new Quantile(Double.NaN, false);
    }
    double observations = cumulative[size - 1];
    if (observations == 0) {
      return new Quantile(Double.NaN, false);
    }
    double rank = q * observations;
    int b = 0;
    while (b < size - 1 && !(cumulative[b] >= rank)) {
      b++;
    }
    if (b == size - 1) {
      return new Quantile(bounds[size - 2], forced);
    }
    if (b == 0 && bounds[0] <= 0) {
      return new Quantile(bounds[0], forced);
    }
    double start = 0;
    double end = bounds[b];
    double count = cumulative[b];
    if (b > 0) {
      start = bounds[b - 1];
      count -= cumulative[b - 1];
      rank -= cumulative[b - 1];
    }
    return new Quantile(start + (end - start) * (rank / count), forced);
  }

  /**
   * The fraction of observations between lower and upper, interpolating linearly inside the
   * buckets that contain a bound (the first bucket spans 0 to its bound when that is positive).
   */
  static double fraction(double lower, double upper, double[] upperBounds, double[] counts, int n) {
    double[][] buckets = sortedCoalesced(upperBounds, counts, n);
    double[] bounds = buckets[0];
    double[] cumulative = buckets[1];
    int size = bounds.length;
    if (size == 0 || !(bounds[size - 1] == Double.POSITIVE_INFINITY)) {
      return Double.NaN;
    }
    evenOut(cumulative);
    double total = cumulative[size - 1];
    if (total == 0 || Double.isNaN(lower) || Double.isNaN(upper)) {
      return Double.NaN;
    }
    if (lower >= upper) {
      return 0;
    }
    return Math.max(0, rankAt(upper, bounds, cumulative) - rankAt(lower, bounds, cumulative)) / total;
  }

  /**
   * How many observations lie at or below v, interpolated. Within a bucket of infinite width there
   * is nothing to interpolate over: its observations count as lying at its infinite end.
   */
  private static double rankAt(double v, double[] bounds, double[] cumulative) {
    int size = bounds.length;
    double previousCount = 0;
    double previousBound = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      double lowerBound = i == 0 ? (bounds[0] > 0 ? 0 : Double.NEGATIVE_INFINITY) : previousBound;
      double upperBound = bounds[i];
      double bucketCount = cumulative[i] - previousCount;
      if (v <= lowerBound) {
        return previousCount;
      }
      if (v < upperBound) {
        if (Double.isInfinite(lowerBound) || Double.isInfinite(upperBound)) {
          return Double.isInfinite(lowerBound) ? cumulative[i] : previousCount;
        }
        return previousCount + bucketCount * (v - lowerBound) / (upperBound - lowerBound);
      }
      previousCount = cumulative[i];
      previousBound = upperBound;
    }
    return cumulative[size - 1];
  }

  private static double[][] sortedCoalesced(double[] upperBounds, double[] counts, int n) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(upperBounds[a], upperBounds[b]));
    double[] bounds = new double[n];
    double[] cumulative = new double[n];
    int size = 0;
    for (int k = 0; k < n; k++) {
      int i = order[k];
      if (size > 0 && bounds[size - 1] == upperBounds[i]) {
        cumulative[size - 1] += counts[i];
      } else {
        bounds[size] = upperBounds[i];
        cumulative[size] = counts[i];
        size++;
      }
    }
    return new double[][] {Arrays.copyOf(bounds, size), Arrays.copyOf(cumulative, size)};
  }

  /** Ignores float-noise differences and removes decreases; true if a decrease was removed. */
  private static boolean evenOut(double[] cumulative) {
    boolean forced = false;
    if (cumulative.length == 0) {
      return false;
    }
    double previous = cumulative[0];
    for (int i = 1; i < cumulative.length; i++) {
      double current = cumulative[i];
      if (current == previous) {
        continue;
      }
      if (almostEqual(previous, current, SMALL_DELTA)) {
        cumulative[i] = previous;
        continue;
      }
      if (current < previous) {
        cumulative[i] = previous;
        forced = true;
        continue;
      }
      previous = current;
    }
    return forced;
  }

  /** Prometheus' almost.Equal: relative difference below epsilon. */
  static boolean almostEqual(double a, double b, double epsilon) {
    if (Double.isNaN(a) && Double.isNaN(b)) {
      return true;
    }
    if (a == b) {
      return true;
    }
    double absSum = Math.abs(a) + Math.abs(b);
    double diff = Math.abs(a - b);
    if (a == 0 || b == 0 || absSum < Double.MIN_NORMAL) {
      return diff < epsilon * Double.MIN_NORMAL;
    }
    return diff / Math.min(absSum, Double.MAX_VALUE) < epsilon;
  }
}
