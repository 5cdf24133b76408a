package io.chronix.ingest.promql;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.parser.Durations;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** The parameters of Prometheus' HTTP API: times and durations in the forms Prometheus reads. */
public final class ApiParameters {

  /** What Prometheus uses for "no start" and "no end" (its minTime and maxTime, in milliseconds). */
  public static final long MIN_TIME = -9223309901257974L;
  public static final long MAX_TIME = 9223309901257974L;

  private ApiParameters() {}

  /**
   * Unix seconds with a fraction ("1435781451.781") or RFC 3339 ("2015-07-01T20:10:51.781Z"), to
   * epoch milliseconds.
   */
  public static long time(String name, String text) {
    if (text == null || text.isEmpty()) {
      throw invalid(name, "cannot parse \"\" to a valid timestamp");
    }
    try {
      BigDecimal seconds = new BigDecimal(text);
      return seconds.movePointRight(3).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    } catch (NumberFormatException | ArithmeticException notANumber) {
      try {
        Instant instant = Instant.parse(text);
        return instant.toEpochMilli();
      } catch (DateTimeParseException | ArithmeticException e) {
        throw invalid(name, "cannot parse \"" + text + "\" to a valid timestamp");
      }
    }
  }

  public static long timeOr(String name, String text, long fallback) {
    return text == null || text.isEmpty() ? fallback : time(name, text);
  }

  /** Float seconds ("15", "0.5") or a duration ("1m0s"), to milliseconds. */
  public static long duration(String name, String text) {
    if (text == null || text.isEmpty()) {
      throw invalid(name, "cannot parse \"\" to a valid duration");
    }
    try {
      return Durations.parseParameterMillis(text);
    } catch (IllegalArgumentException e) {
      throw invalid(name, e.getMessage());
    }
  }

  static int limit(String text) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    try {
      int limit = Integer.parseInt(text);
      if (limit < 0) {
        throw invalid("limit", "limit must be non-negative");
      }
      return limit;
    } catch (NumberFormatException e) {
      throw invalid("limit", "cannot parse \"" + text + "\" to a valid limit");
    }
  }

  /** The {@code match[]} selectors (none when absent), each parsed once to refuse a bad one naming it. */
  public static java.util.List<String> selectors(String[] values) {
    java.util.List<String> selectors = values == null ? java.util.List.of() : java.util.Arrays.asList(values);
    for (String selector : selectors) {
      try {
        io.chronix.analysis.promql.parser.PromQlParser.parseSelector(selector);
      } catch (io.chronix.analysis.promql.parser.ParseException e) {
        throw invalid("match[]", selector + ": " + e.getMessage());
      }
    }
    return selectors;
  }

  static PromQlException invalid(String name, String problem) {
    return PromQlException.badData("invalid parameter \"" + name + "\": " + problem);
  }
}
