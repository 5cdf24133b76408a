package io.chronix.analysis;

import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Unit names for window and shift arguments. Only units of fixed length are accepted: a month or
 * a year has no duration in nanoseconds without a calendar, and the functions work on nanoseconds.
 */
final class TimeUnits {

  static final List<ChronoUnit> UNITS = List.of(
      ChronoUnit.NANOS, ChronoUnit.MICROS, ChronoUnit.MILLIS, ChronoUnit.SECONDS,
      ChronoUnit.MINUTES, ChronoUnit.HOURS, ChronoUnit.HALF_DAYS, ChronoUnit.DAYS,
      ChronoUnit.WEEKS);

  static final String NAMES = UNITS.toString();

  private static final Map<String, ChronoUnit> BY_NAME = new LinkedHashMap<>();

  static {
    for (ChronoUnit unit : UNITS) {
      String plural = unit.name();
      BY_NAME.put(plural, unit);
      BY_NAME.put(plural.substring(0, plural.length() - 1), unit);
    }
    alias(ChronoUnit.NANOS, "NS", "NANOSECOND", "NANOSECONDS");
    alias(ChronoUnit.MICROS, "US", "MICROSECOND", "MICROSECONDS");
    alias(ChronoUnit.MILLIS, "MS", "MILLISECOND", "MILLISECONDS");
    alias(ChronoUnit.SECONDS, "S", "SEC", "SECS");
    alias(ChronoUnit.MINUTES, "M", "MIN", "MINS");
    alias(ChronoUnit.HOURS, "H");
    alias(ChronoUnit.DAYS, "D");
    alias(ChronoUnit.WEEKS, "W");
  }

  private TimeUnits() {}

  private static void alias(ChronoUnit unit, String... names) {
    for (String name : names) {
      BY_NAME.put(name, unit);
    }
  }

  /** The unit of a case-insensitive name, or null. */
  static ChronoUnit parse(String name) {
    return BY_NAME.get(name.trim().toUpperCase(Locale.ROOT));
  }
}
