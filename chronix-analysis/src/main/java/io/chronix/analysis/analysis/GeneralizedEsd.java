package io.chronix.analysis.analysis;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * Rosner's generalized extreme studentized deviate test for up to k outliers, in the robust
 * "hybrid" form of Hochenbaum, Vallis and Kejariwal (Twitter): deviations are measured from the
 * median in units of the median absolute deviation, because the mean and standard deviation are
 * themselves dragged along by the anomalies the test is looking for.
 */
public final class GeneralizedEsd {

  /** Scales the MAD to estimate the standard deviation of normally distributed data. */
  private static final double MAD_TO_SIGMA = 1.4826;

  private GeneralizedEsd() {}

  /**
   * The indices of the anomalies among the values, most extreme first.
   *
   * @param maxAnomalies the k of the test, the most anomalies that can be reported
   * @param alpha the significance level of each of the k tests
   */
  public static int[] anomalies(double[] values, int maxAnomalies, double alpha) {
    int n = values.length;
    boolean[] removed = new boolean[n];
    int[] candidates = new int[Math.max(0, maxAnomalies)];
    int found = 0;
    for (int i = 1; i <= maxAnomalies; i++) {
      int remaining = n - i + 1;
      int degrees = n - i - 1;
      if (degrees < 1) {
        break;
      }
      double[] rest = remainingValues(values, removed, remaining);
      double median = new Median().evaluate(rest);
      double[] deviations = new double[rest.length];
      for (int j = 0; j < rest.length; j++) {
        deviations[j] = Math.abs(rest[j] - median);
      }
      double spread = new Median().evaluate(deviations) * MAD_TO_SIGMA;
      int extreme = mostExtreme(values, removed, median);
      double deviation = Math.abs(values[extreme] - median);
      if (deviation == 0) {
        break; // all remaining values equal the median: nothing can stand out any more
      }
      double statistic = spread == 0 ? Double.POSITIVE_INFINITY : deviation / spread;
      double critical = criticalValue(n, i, alpha);
      candidates[i - 1] = extreme;
      removed[extreme] = true;
      if (statistic > critical) {
        found = i;
      }
    }
    return Arrays.copyOf(candidates, found);
  }

  /** Rosner's lambda_i: the i-th statistic of n values must exceed it to be an outlier. */
  static double criticalValue(int n, int i, double alpha) {
    int degrees = n - i - 1;
    double p = 1 - alpha / (2.0 * (n - i + 1));
    double t = new TDistribution(null, degrees).inverseCumulativeProbability(p);
    return (n - i) * t / Math.sqrt((degrees + t * t) * (n - i + 1));
  }

  private static double[] remainingValues(double[] values, boolean[] removed, int remaining) {
    double[] rest = new double[remaining];
    int count = 0;
    for (int j = 0; j < values.length; j++) {
      if (!removed[j]) {
        rest[count++] = values[j];
      }
    }
    return rest;
  }

  private static int mostExtreme(double[] values, boolean[] removed, double median) {
    int extreme = -1;
    double largest = -1;
    for (int j = 0; j < values.length; j++) {
      double deviation = Math.abs(values[j] - median);
      if (!removed[j] && deviation > largest) {
        largest = deviation;
        extreme = j;
      }
    }
    return extreme;
  }
}
