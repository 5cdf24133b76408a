package io.chronix.analysis.promql.model;

import java.math.BigDecimal;

/**
 * Numbers as Prometheus prints them (Go's strconv.FormatFloat(v, 'f', -1, 64)): the shortest
 * decimal that reads back as the same double, never with an exponent; "NaN", "+Inf", "-Inf".
 * Used for sample values in the API and for count_values' labels.
 */
public final class GoFloats {

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
