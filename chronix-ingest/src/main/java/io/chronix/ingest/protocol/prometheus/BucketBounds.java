package io.chronix.ingest.protocol.prometheus;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Upper bounds of native histogram buckets. With schema {@code s} (-4..8) the bucket of index
 * {@code i} holds absolute values in {@code (base^(i-1), base^i]}, {@code base = 2^(2^-s)}.
 *
 * <p>A bound is a fraction in [0.5, 1) times a power of two, so it is exact for schemas up to 0
 * and correctly rounded above, and the same bucket always gets the same {@code le} string.
 * {@link Math#pow} promises only an ulp, too little for that. Prometheus' own fraction table is an
 * ulp lower for a few fractions (2^(1/2)/2 among them), so for those buckets the bound Prometheus
 * prints can differ from ours in the last digit; the bucket it stands for is the same.
 */
final class BucketBounds {

  static final int MIN_SCHEMA = -4;
  static final int MAX_SCHEMA = 8;
  /** Buckets are given by the histogram's custom_values (classic buckets sent natively). */
  static final int CUSTOM_BUCKETS_SCHEMA = -53;

  /** FRACTIONS[s][j] = 2^(j / 2^s) / 2, the mantissa of a bound for schema s > 0. */
  private static final double[][] FRACTIONS = fractions();

  private BucketBounds() {}

  static boolean isExponential(int schema) {
    return schema >= MIN_SCHEMA && schema <= MAX_SCHEMA;
  }

  /** The upper bound of bucket {@code index}; the bucket past the largest double is +Inf. */
  static double upper(int schema, int index) {
    if (schema <= 0) {
      long exponent = (long) index << -schema;
      if (exponent == Double.MAX_EXPONENT + 1) {
        // 2^1024 is not a double: the last finite bucket ends at the largest double instead
        return Double.MAX_VALUE;
      }
      return Math.scalb(1.0, (int) Math.max(-2_000, Math.min(2_000, exponent)));
    }
    double fraction = FRACTIONS[schema][index & ((1 << schema) - 1)];
    int exponent = (index >> schema) + 1;
    if (fraction == 0.5 && exponent == Double.MAX_EXPONENT + 2) {
      return Double.MAX_VALUE;
    }
    return Math.scalb(fraction, exponent);
  }

  /**
   * The (exclusive) lower bound of bucket {@code index}; negated, it is the upper bound of the
   * negative bucket of that index, which holds {@code [-upper, -lower)}.
   *
   * @param index greater than {@link Integer#MIN_VALUE}
   */
  static double lower(int schema, int index) {
    return upper(schema, index - 1);
  }

  private static double[][] fractions() {
    // 40 significant digits keep the accumulated error far below half an ulp of a double
    MathContext precision = new MathContext(40);
    double[][] tables = new double[MAX_SCHEMA + 1][];
    BigDecimal half = new BigDecimal("0.5");
    for (int schema = 0; schema <= MAX_SCHEMA; schema++) {
      BigDecimal step = BigDecimal.valueOf(2);
      for (int i = 0; i < schema; i++) {
        step = step.sqrt(precision);
      }
      double[] table = new double[1 << schema];
      BigDecimal power = BigDecimal.ONE;
      for (int j = 0; j < table.length; j++) {
        table[j] = power.multiply(half, precision).doubleValue();
        power = power.multiply(step, precision);
      }
      tables[schema] = table;
    }
    return tables;
  }
}
