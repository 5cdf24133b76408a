package io.chronix.analysis.promql.model;

import java.nio.charset.StandardCharsets;

/**
 * Numbers as Prometheus prints them (Go's strconv.FormatFloat(v, 'f', -1, 64)): the shortest
 * decimal that reads back as the same double, never with an exponent; "NaN", "+Inf", "-Inf".
 * Used for sample values in the API and for count_values' labels.
 */
public final class GoFloats {

  /** 10^k for the fraction digits k of a short decimal. */
  private static final long[] SCALES = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
  /** 2^51 / 10^6: a double's spacing below it is under half a millionth. */
  private static final double SHORT_LIMIT = 2_251_799_813.0;
  /** Room {@link #writeShort} needs: a sign, 16 digits, a point. */
  public static final int SHORT_CHARS = 24;

  private static final byte[] NAN = ascii("NaN");
  private static final byte[] PLUS_INF = ascii("+Inf");
  private static final byte[] MINUS_INF = ascii("-Inf");
  private static final byte[] ZERO = ascii("0");
  private static final byte[] MINUS_ZERO = ascii("-0");

  private GoFloats() {}

  public static String format(double value) {
    byte[] text = new byte[SHORT_CHARS];
    int end = writeShort(value, text, 0);
    if (end >= 0) {
      return new String(text, 0, end, StandardCharsets.US_ASCII);
    }
    String shortest = Double.toString(value);
    // Java's form has neither an exponent nor trailing zeros for a fraction between 1e-3 and 1e7,
    // where most samples lie: it is the plain form already (a range of 72,000 values spent a
    // fifth of its answer's time making BigDecimals that changed nothing)
    int exponent = shortest.indexOf('E');
    if (exponent < 0) {
      return shortest;
    }
    return plain(shortest, exponent);
  }

  /**
   * Java's exponent form ({@code -1.1585589026543E7}) as a plain decimal without trailing zeros,
   * as BigDecimal's {@code stripTrailingZeros().toPlainString()} gives it: rates of counters
   * (bytes, nanoseconds) lie above 10^7, and parsing and printing a BigDecimal a sample was a
   * tenth of such a {@code rate}'s answer. {@code e} is where the exponent's 'E' is.
   */
  static String plain(String exponentForm, int e) {
    boolean negative = exponentForm.charAt(0) == '-';
    int exponent = Integer.parseInt(exponentForm, e + 1, exponentForm.length(), 10);
    char[] digits = new char[e];
    int count = 0;
    for (int i = negative ? 1 : 0; i < e; i++) {
      char c = exponentForm.charAt(i);
      if (c != '.') {
        digits[count++] = c;
      }
    }
    while (count > 1 && digits[count - 1] == '0') {
      count--;
    }
    int point = 1 + exponent; // Java's mantissa has one digit before its point
    StringBuilder text = new StringBuilder(count + Math.abs(point) + 3);
    if (negative) {
      text.append('-');
    }
    if (point <= 0) {
      text.append("0.");
      text.append("0".repeat(-point));
      text.append(digits, 0, count);
    } else if (point >= count) {
      text.append(digits, 0, count);
      text.append("0".repeat(point - count));
    } else {
      text.append(digits, 0, point).append('.').append(digits, point, count - point);
    }
    return text.toString();
  }

  /**
   * Writes {@link #format}'s text (ASCII, so as UTF-8 too) into {@code out} from {@code at}, which
   * must have room for {@link #SHORT_CHARS}, where it is short: NaN, the infinities, zeros, whole numbers below 10^15
   * and decimals of one to six fraction digits. Returns the end, or -1 (nothing written) for any
   * other value. Java's conversion of a double to text and a String a sample were 30 % of a
   * {@code sum by} over 100 series' answer, and most samples are such decimals (41.25, 0.3).
   *
   * <p>The decimal is m / 10^k for the first k where the scaled value is an integer m that divides
   * back to the value: a correctly rounded division, as parsing the text is, so the text reads back
   * as the value. Below {@link #SHORT_LIMIT} two decimals of k fraction digits lie more than a
   * double's spacing apart, so at most one reads back as the value: it is Go's shortest form, once
   * trailing zeros are dropped (a scale that missed its integer by a rounding finds it at the next).
   *
   * <p>Bytes, not chars: the API's answers are UTF-8, and Jackson encoded a char array of them a
   * char at a time (a tenth of a {@code sum by} over 100 series' answer).
   */
  public static int writeShort(double value, byte[] out, int at) {
    if (Double.isNaN(value)) {
      return put(NAN, out, at);
    }
    if (Double.isInfinite(value)) {
      return put(value > 0 ? PLUS_INF : MINUS_INF, out, at);
    }
    if (value == 0) {
      return put(Double.doubleToRawLongBits(value) < 0 ? MINUS_ZERO : ZERO, out, at);
    }
    // whole below 10^15: the cast is exact (Math.rint is a call in the quick compiler's code)
    if (Math.abs(value) < 1e15 && value == (double) (long) value) {
      return writeLong((long) value, out, at);
    }
    if (!(Math.abs(value) < SHORT_LIMIT)) {
      return -1;
    }
    for (int k = 1; k < SCALES.length; k++) {
      double scaled = value * SCALES[k]; // the power of ten converts to a double exactly
      if (scaled == (double) (long) scaled && scaled / SCALES[k] == value) {
        long units = Math.abs((long) scaled);
        int digits = k;
        while (units % 10 == 0) {
          units /= 10;
          digits--;
        }
        if (value < 0) {
          out[at++] = '-';
        }
        long whole = units / SCALES[digits];
        at = writeLong(whole, out, at);
        out[at++] = '.';
        long fraction = units - whole * SCALES[digits];
        for (int digit = digits - 1; digit >= 0; digit--) {
          out[at + digit] = (byte) ('0' + fraction % 10);
          fraction /= 10;
        }
        return at + digits;
      }
    }
    return -1;
  }

  /** Decimal digits of a value, with its sign; int arithmetic where it fits (a long division is a call in C1's code). */
  private static int writeLong(long value, byte[] out, int at) {
    if (value < 0) {
      out[at++] = '-';
      value = -value; // above -10^15: no overflow
    }
    int digits = 1;
    for (long bound = 10; digits < 19 && value >= bound; bound *= 10) {
      digits++;
    }
    int p = at + digits;
    while (value > Integer.MAX_VALUE) {
      long quotient = value / 10;
      out[--p] = (byte) ('0' + (value - quotient * 10));
      value = quotient;
    }
    int small = (int) value;
    do {
      int quotient = small / 10;
      out[--p] = (byte) ('0' + (small - quotient * 10));
      small = quotient;
    } while (small > 0);
    return at + digits;
  }

  private static int put(byte[] text, byte[] out, int at) {
    System.arraycopy(text, 0, out, at, text.length);
    return at + text.length;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
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
