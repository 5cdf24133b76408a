package io.chronix.analysis.analysis;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;

/**
 * Symbolic Aggregate approXimation (Lin, Keogh et al.): a series as a short word, so that shapes
 * can be searched for with patterns. After z-normalization the values are roughly standard normal,
 * which is why letters are cut at the normal quantiles: each letter is then about equally likely.
 */
public final class SaxWord {

  private SaxWord() {}

  /**
   * The SAX word of the values. The standard deviation is the bias-corrected sample one, as for
   * dev; below {@code threshold} the series counts as flat and is normalized to all zeros, because
   * blowing up noise on a flat line would make up a shape that is not there.
   */
  public static String of(double[] values, int paaSize, int alphabetSize, double threshold) {
    if (values.length == 0) {
      return "";
    }
    double[] normalized = zNormalize(values, threshold);
    double[] breakpoints = breakpoints(alphabetSize);
    StringBuilder word = new StringBuilder(paaSize);
    for (double segment : paa(normalized, paaSize)) {
      int letter = 0;
      while (letter < breakpoints.length && breakpoints[letter] <= segment) {
        letter++;
      }
      word.append((char) ('a' + letter));
    }
    return word.toString();
  }

  static double[] zNormalize(double[] values, double threshold) {
    double mean = StatUtils.mean(values);
    double deviation = new StandardDeviation().evaluate(values);
    double[] normalized = new double[values.length];
    if (deviation < threshold) {
      return normalized;
    }
    for (int i = 0; i < values.length; i++) {
      normalized[i] = (values[i] - mean) / deviation;
    }
    return normalized;
  }

  /**
   * Piecewise aggregate approximation into {@code segments} equal parts. When the length is not a
   * multiple of the segment count, a point straddling two segments counts in both with the
   * fraction it covers, so that every segment averages exactly length/segments points' worth.
   */
  static double[] paa(double[] values, int segments) {
    int n = values.length;
    double[] means = new double[segments];
    // in units of 1/segments of a point: point i spans [i*segments, (i+1)*segments),
    // segment k spans [k*n, (k+1)*n)
    for (int k = 0; k < segments; k++) {
      long from = (long) k * n;
      long to = from + n;
      double sum = 0;
      for (int i = (int) (from / segments); i < n && (long) i * segments < to; i++) {
        long overlap =
            Math.min(to, (long) (i + 1) * segments) - Math.max(from, (long) i * segments);
        sum += values[i] * overlap;
      }
      means[k] = sum / n;
    }
    return means;
  }

  /** The alphabetSize - 1 cuts that split the standard normal distribution into equal parts. */
  static double[] breakpoints(int alphabetSize) {
    NormalDistribution normal = new NormalDistribution();
    double[] cuts = new double[alphabetSize - 1];
    for (int k = 1; k < alphabetSize; k++) {
      cuts[k - 1] = normal.inverseCumulativeProbability((double) k / alphabetSize);
    }
    return cuts;
  }
}
