package io.chronix.analysis.promql.model;

import java.math.BigDecimal;

/**
 * Numbers as Prometheus prints them (Go's strconv.FormatFloat(v, 'f', -1, 64)): the shortest
 * decimal that reads back as the same double, never with an exponent; "NaN", "+Inf", "-Inf".
 * Used for sample values in the API and for count_values' labels.
 */
public final class GoFloats {

  private static final double[] SCALES = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
  private static final long[] LONG_SCALES = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
  /** 2^51 / 10^6: a double's spacing below it is under half a millionth. */
  private static final double SHORT_LIMIT = 2_251_799_813.0;

  private GoFloats() {}

  public static String format(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == 0) {
      return Double.doubleToRawLongBits(value) < 0 ? "-0" : "0";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    String decimal = shortDecimal(value);
    if (decimal != null) {
      return decimal;
    }
    String shortest = Double.toString(value);
    // Java's form has neither an exponent nor trailing zeros for a fraction between 1e-3 and 1e7,
    // where most samples lie: it is the plain form already (a range of 72,000 values spent a
    // fifth of its answer's time making BigDecimals that changed nothing)
    if (shortest.indexOf('E') < 0) {
      return shortest;
    }
    return new BigDecimal(shortest).stripTrailingZeros().toPlainString();
  }

  /**
   * The value as digits with one to six fraction digits, or null (also for whole numbers). Most
   * samples are such decimals (41.25, 0.3), and Java's conversion of a double to text was a sixth of
   * a {@code sum by} over 100 series' answer. The decimal is m / 10^k for the first k where the
   * scaled value is an integer m that divides back to the value: a correctly rounded division, as
   * parsing the text is, so the text reads back as the value. Below {@link #SHORT_LIMIT} two decimals
   * of k fraction digits lie more than a double's spacing apart, so at most one reads back as the
   * value: it is Go's shortest form, once trailing zeros are dropped (a scale that missed its
   * integer by a rounding finds it at the next).
   */
  static String shortDecimal(double value) {
    if (!(Math.abs(value) < SHORT_LIMIT) || value == Math.rint(value)) {
      return null; // whole numbers have their own form
    }
    for (int k = 1; k < SCALES.length; k++) {
      double scaled = value * SCALES[k];
      if (scaled == Math.rint(scaled) && scaled / SCALES[k] == value) {
        long units = Math.abs((long) scaled);
        int digits = k;
        while (units % 10 == 0) {
          units /= 10;
          digits--;
        }
        StringBuilder text = new StringBuilder(24);
        if (value < 0) {
          text.append('-');
        }
        long whole = units / LONG_SCALES[digits];
        text.append(whole).append('.');
        String fraction = Long.toString(units - whole * LONG_SCALES[digits]);
        for (int pad = fraction.length(); pad < digits; pad++) {
          text.append('0');
        }
        return text.append(fraction).toString();
      }
    }
    return null;
  }

  /**
   * Parses numbers as Go's strconv.ParseFloat does for Prometheus' inputs: decimal and exponent
   * forms, "NaN", "Inf", "+Inf", "-Inf" in any case.
   *
   * @throws NumberFormatException for anything else
   */
  public static double parse(String text) {
    String trimmed = text.trim();
    String lower = trimmed.toLowerCase(java.util.Locale.ROOT);
    switch (lower) {
      case "nan":
        return Double.NaN;
      case "inf":
      case "+inf":
      case "infinity":
      case "+infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf":
      case "-infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        if (trimmed.isEmpty() || lower.endsWith("d") || lower.endsWith("f") || lower.contains("x")) {
          throw new NumberFormatException("not a number: '" + text + "'");
        }
        return Double.parseDouble(trimmed);
    }
  }
}
