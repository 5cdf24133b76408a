package io.chronix.analysis.promql.engine;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** hour(), day_of_week() and friends, in UTC, of a value read as Unix seconds (whole seconds). */
final class DateFunctions {

  private static final Map<String, ToDoubleFunction<ZonedDateTime>> FUNCTIONS = new HashMap<>();

  static {
    FUNCTIONS.put("year", ZonedDateTime::getYear);
    FUNCTIONS.put("month", ZonedDateTime::getMonthValue);
    FUNCTIONS.put("day_of_month", ZonedDateTime::getDayOfMonth);
    FUNCTIONS.put("day_of_year", ZonedDateTime::getDayOfYear);
    FUNCTIONS.put("day_of_week", t -> t.getDayOfWeek().getValue() % 7);
    FUNCTIONS.put("hour", ZonedDateTime::getHour);
    FUNCTIONS.put("minute", ZonedDateTime::getMinute);
    FUNCTIONS.put("days_in_month", t -> t.toLocalDate().lengthOfMonth());
  }

  private DateFunctions() {}

  static boolean has(String name) {
    return FUNCTIONS.containsKey(name);
  }

  static double apply(String name, double unixSeconds) {
    if (Double.isNaN(unixSeconds) || Double.isInfinite(unixSeconds)) {
      // Go converts such values to the minimum int64 seconds; report what that date gives
      unixSeconds = -9.223372036854775808e18;
    }
    long seconds = (long) unixSeconds; // truncated, as Go's int64 conversion
    ZonedDateTime time;
    try {
      time = Instant.ofEpochSecond(seconds).atZone(ZoneOffset.UTC);
    } catch (java.time.DateTimeException outOfRange) {
      return Double.NaN;
    }
    return FUNCTIONS.get(name).applyAsDouble(time);
  }
}
