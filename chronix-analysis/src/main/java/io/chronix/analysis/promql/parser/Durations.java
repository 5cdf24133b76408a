package io.chronix.analysis.promql.parser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prometheus durations: units y (365 days), w, d, h, m, s, ms, each at most once and from the
 * largest down, as in {@code 1h30m} or {@code 1m0s}; a year is not a calendar year.
 */
public final class Durations {

  private static final Pattern DURATION = Pattern.compile(
      "(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?");
  /**
   * What Go's strconv.ParseFloat reads as a finite number, decimal or hexadecimal: Java's
   * Double.parseDouble takes more (a type suffix, so that "1d" was one second instead of a day;
   * white space around it), and its failure on every duration ("15s") threw an exception a request.
   * Go's infinities and NaN are numbers too, but no duration: they fail below as any other text.
   */
  private static final Pattern GO_FLOAT = Pattern.compile("[+-]?(?:(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?"
      + "|0[xX](?:[0-9a-fA-F]+(?:\\.[0-9a-fA-F]*)?|\\.[0-9a-fA-F]+)[pP][+-]?\\d+)");
  private static final long[] UNIT_MILLIS = {
      365L * 24 * 3600_000, 7L * 24 * 3600_000, 24L * 3600_000, 3600_000L, 60_000L, 1000L, 1L};

  private Durations() {}

  /** Milliseconds of a duration literal such as {@code 5m}; throws for anything else. */
  public static long parseMillis(String text) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("empty duration string");
    }
    if (text.equals("0")) {
      return 0;
    }
    Matcher matcher = DURATION.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException("not a valid duration string: \"" + text + "\"");
    }
    long millis = 0;
    for (int group = 1; group <= UNIT_MILLIS.length; group++) {
      String amount = matcher.group(group);
      if (amount != null) {
        try {
          millis = Math.addExact(millis, Math.multiplyExact(Long.parseLong(amount), UNIT_MILLIS[group - 1]));
        } catch (ArithmeticException | NumberFormatException e) {
          throw new IllegalArgumentException("duration out of range: \"" + text + "\"");
        }
      }
    }
    return millis;
  }

  /**
   * The API's form of a duration parameter ({@code step}, {@code timeout}): float seconds
   * ("15", "0.5") or a duration ("1m0s").
   */
  public static long parseParameterMillis(String text) {
    // out of a double's range Go's ParseFloat fails, and so the duration does
    double seconds = GO_FLOAT.matcher(text).matches() ? Double.parseDouble(text) : Double.NaN;
    if (Double.isFinite(seconds)) {
      double nanos = seconds * 1e9; // Prometheus' bound: a Go duration, int64 nanoseconds
      if (nanos > 0x1p63 || nanos < -0x1p63) {
        throw new IllegalArgumentException("cannot parse \"" + text + "\" to a valid duration. It overflows int64");
      }
      return (long) Math.rint(seconds * 1000);
    }
    try {
      return parseMillis(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot parse \"" + text + "\" to a valid duration");
    }
  }

  /** Prometheus' rendering of a duration: {@code 5m}, {@code 1h30m}, {@code 0s}. */
  public static String format(long millis) {
    if (millis == 0) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    long rest = Math.abs(millis);
    String[] units = {"y", "w", "d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      long amount = rest / UNIT_MILLIS[i];
      if (amount > 0) {
        text.append(amount).append(units[i]);
        rest -= amount * UNIT_MILLIS[i];
      }
    }
    return (millis < 0 ? "-" : "") + text;
  }
}
