package io.chronix.ingest.protocol;

import java.nio.charset.StandardCharsets;

/**
 * Decimal numbers read straight from request bytes, the hot path of the text protocols (a
 * 10,000-line write holds 10,000 values and timestamps): no String per number. Anything beyond
 * the fast paths goes to the JDK's parsers, so results are exactly theirs.
 */
public final class ByteNumbers {

  /** Powers of ten that doubles hold exactly: a product or quotient with them rounds once. */
  private static final double[] EXACT_POWERS = {
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
      1e19, 1e20, 1e21, 1e22};
  /** Significant digits that fit a long below 2^53, where the fast path is exact. */
  private static final int FAST_DIGITS = 15;
  /** Digits of a long that cannot overflow; a nineteenth is checked (nanosecond timestamps have 19). */
  private static final int SAFE_LONG_DIGITS = 18;

  private ByteNumbers() {}

  /**
   * A decimal float in {@code [start, end)} in the syntax the line protocol accepts,
   * {@code [+-]digits[.digits][(e|E)[+-]digits]} with at least one digit before the exponent (no
   * NaN, no infinities, no hex), checked in the same pass that reads it. Up to 15 significant
   * digits and a decimal exponent within 22 take Clinger's fast path (one correctly rounded
   * multiplication or division); the rest goes to {@link Double#parseDouble}.
   *
   * @throws NumberFormatException when the bytes are not such a number
   */
  public static double parseDouble(byte[] text, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (text[i] == '-' || text[i] == '+')) {
      negative = text[i] == '-';
      i++;
    }
    long mantissa = 0;
    int significant = 0;
    int exponent = 0;
    int digits = 0;
    boolean fraction = false;
    for (; i < end; i++) {
      int digit = text[i] - '0';
      if (digit < 0 || digit > 9) {
        if (text[i] != '.' || fraction) {
          break;
        }
        fraction = true;
        continue;
      }
      digits++;
      if (mantissa != 0 || digit != 0) {
        significant++; // beyond the fast path's digits the mantissa is not used
        mantissa = mantissa * 10 + digit;
      }
      if (fraction) {
        exponent--;
      }
    }
    if (digits == 0) {
      throw notANumber(text, start, end);
    }
    if (i < end) {
      if (text[i] != 'e' && text[i] != 'E') {
        throw notANumber(text, start, end);
      }
      i++;
      boolean negativeExponent = false;
      if (i < end && (text[i] == '-' || text[i] == '+')) {
        negativeExponent = text[i] == '-';
        i++;
      }
      if (i == end) {
        throw notANumber(text, start, end);
      }
      int value = 0;
      for (; i < end; i++) {
        int digit = text[i] - '0';
        if (digit < 0 || digit > 9) {
          throw notANumber(text, start, end);
        }
        value = Math.min(value * 10 + digit, 100_000); // far beyond any double's: the slow path says what it is
      }
      exponent += negativeExponent ? -value : value;
    }
    double result;
    if (significant > FAST_DIGITS) {
      return slow(text, start, end);
    } else if (mantissa == 0) {
      result = 0;
    } else if (exponent >= 0 && exponent < EXACT_POWERS.length) {
      result = mantissa * EXACT_POWERS[exponent];
    } else if (exponent < 0 && -exponent < EXACT_POWERS.length) {
      result = mantissa / EXACT_POWERS[-exponent];
    } else {
      return slow(text, start, end);
    }
    return negative ? -result : result;
  }

  private static NumberFormatException notANumber(byte[] text, int start, int end) {
    return new NumberFormatException("not a decimal number: '" + ascii(text, start, end) + "'");
  }

  private static final long MAX_TENTH = Long.MAX_VALUE / 10;
  private static final long MAX_LAST_DIGIT = Long.MAX_VALUE % 10;

  /**
   * A signed decimal long in {@code [start, end)} (ASCII digits, optional sign).
   *
   * @throws NumberFormatException exactly where {@link Long#parseLong} throws for the same text
   */
  public static long parseLong(byte[] text, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (text[i] == '-' || text[i] == '+')) {
      negative = text[i] == '-';
      i++;
    }
    if (i == end || end - i > SAFE_LONG_DIGITS + 1) {
      return Long.parseLong(ascii(text, start, end));
    }
    int safeEnd = Math.min(end, i + SAFE_LONG_DIGITS);
    long value = 0;
    for (; i < safeEnd; i++) {
      int digit = text[i] - '0';
      if (digit < 0 || digit > 9) {
        throw new NumberFormatException("For input string: \"" + ascii(text, start, end) + "\"");
      }
      value = value * 10 + digit;
    }
    if (i < end) {
      int digit = text[i] - '0';
      // value * 10 + digit > Long.MAX_VALUE, without the division the quick JIT compiler makes a
      // call into the runtime (every nanosecond timestamp has this last digit)
      if (digit < 0 || digit > 9 || value > MAX_TENTH || (value == MAX_TENTH && digit > MAX_LAST_DIGIT)) {
        return Long.parseLong(ascii(text, start, end)); // the JDK's verdict at the edge (and for Long.MIN_VALUE)
      }
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  /** Bytes as text one to one: numbers and their error messages are ASCII. */
  public static String ascii(byte[] text, int start, int end) {
    return new String(text, start, end - start, StandardCharsets.ISO_8859_1);
  }

  private static double slow(byte[] text, int start, int end) {
    return Double.parseDouble(ascii(text, start, end));
  }
}
