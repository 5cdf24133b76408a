package io.chronix.ingest.protocol;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Numbers as text protocols carry them. Only plain decimal notation is accepted: Java's own
 * parser would also take hex floats, type suffixes ({@code 1d}) and the words NaN and Infinity,
 * none of which a sender means as a measurement.
 */
public final class WireNumbers {

  /** Integers above this lose digits as doubles; they are refused rather than silently rounded. */
  public static final long MAX_EXACT_INTEGER = 1L << 53;
  /** Past 19 integer digits no timestamp fits into epoch nanoseconds; the cap also bounds work. */
  private static final int MAX_INTEGER_DIGITS = 20;
  /** Finer than a nanosecond even for milliseconds; further digits cannot change the result. */
  private static final int MAX_FRACTION_DIGITS = 12;

  private WireNumbers() {}

  /**
   * A measured value: decimal with optional fraction and exponent.
   *
   * @throws IllegalArgumentException for anything else, naming NaN and infinities explicitly
   */
  public static double value(String raw) {
    if (!isDecimal(raw, true)) {
      throw new IllegalArgumentException(isNonFiniteWord(raw)
          ? "value '" + raw + "': NaN and infinite values are not stored"
          : "value '" + abbreviate(raw) + "' is not a number");
    }
    double value = Double.parseDouble(raw);
    if (Double.isInfinite(value)) {
      throw new IllegalArgumentException("value '" + abbreviate(raw) + "' is too large for a double");
    }
    return value;
  }

  /** An integral JSON number as a value, refused beyond 2^53 as the line protocol does. */
  public static double exactInteger(long value) {
    if (Math.abs(value) > MAX_EXACT_INTEGER) {
      throw new IllegalArgumentException("integer " + value + " exceeds 2^53 and cannot be stored exactly as a double");
    }
    return value;
  }

  /**
   * A timestamp as text: {@code [-]digits[.digits]}, no exponent. Digits past the twelfth after
   * the point are dropped.
   *
   * @param what names the field in the message ("timestamp")
   */
  public static BigDecimal decimal(String raw, String what) {
    if (!isDecimal(raw, false)) {
      throw new IllegalArgumentException(what + " '" + abbreviate(raw) + "' is not a decimal number");
    }
    int point = raw.indexOf('.');
    int integerEnd = point < 0 ? raw.length() : point;
    int firstDigit = raw.charAt(0) == '-' || raw.charAt(0) == '+' ? 1 : 0;
    while (firstDigit < integerEnd - 1 && raw.charAt(firstDigit) == '0') {
      firstDigit++;
    }
    if (integerEnd - firstDigit > MAX_INTEGER_DIGITS) {
      throw new IllegalArgumentException(what + " '" + abbreviate(raw) + "' lies outside the years 1677-2262");
    }
    String text = point >= 0 && raw.length() - point - 1 > MAX_FRACTION_DIGITS
        ? raw.substring(0, point + 1 + MAX_FRACTION_DIGITS) : raw;
    return new BigDecimal(text);
  }

  /**
   * Epoch nanoseconds of an amount of units, rounded down.
   *
   * @param unitExponent 9 for seconds, 6 for milliseconds
   * @throws IllegalArgumentException when the instant lies outside what epoch nanoseconds hold
   */
  public static long nanos(BigDecimal amount, int unitExponent, String what) {
    if (amount.precision() - amount.scale() > MAX_INTEGER_DIGITS) {
      throw new IllegalArgumentException(what + " " + amount.toPlainString() + " lies outside the years 1677-2262");
    }
    BigDecimal bounded = amount.scale() > MAX_FRACTION_DIGITS ? amount.setScale(MAX_FRACTION_DIGITS, RoundingMode.FLOOR) : amount;
    try {
      return bounded.movePointRight(unitExponent).setScale(0, RoundingMode.FLOOR).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(what + " " + amount.toPlainString() + " lies outside the years 1677-2262"
          + (unitExponent == 9 ? " (milliseconds sent as seconds?)" : ""));
    }
  }

  private static boolean isDecimal(String raw, boolean exponent) {
    int i = 0;
    int n = raw.length();
    if (i < n && (raw.charAt(i) == '-' || raw.charAt(i) == '+')) {
      i++;
    }
    int digits = 0;
    while (i < n && isDigit(raw.charAt(i))) {
      i++;
      digits++;
    }
    if (i < n && raw.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(raw.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (exponent && i < n && (raw.charAt(i) == 'e' || raw.charAt(i) == 'E')) {
      i++;
      if (i < n && (raw.charAt(i) == '-' || raw.charAt(i) == '+')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < n && isDigit(raw.charAt(i))) {
        i++;
        exponentDigits++;
      }
      if (exponentDigits == 0) {
        return false;
      }
    }
    return i == n;
  }

  /** ASCII only: Character.isDigit would let Arabic-Indic digits through to BigDecimal. */
  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isNonFiniteWord(String raw) {
    String word = raw.toLowerCase(Locale.ROOT);
    if (word.startsWith("-") || word.startsWith("+")) {
      word = word.substring(1);
    }
    return word.equals("nan") || word.equals("inf") || word.equals("infinity");
  }

  private static String abbreviate(String raw) {
    return raw.length() <= 40 ? raw : raw.substring(0, 37) + "...";
  }
}
