package io.chronix.ingest.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Durations as settings spell them: ISO-8601 (PT10M) or a number with a unit: 500ms, 30s, 10m, 2h. */
public final class Durations {

  private Durations() {}

  /** @param what names the setting in the error message */
  public static Duration parse(String what, String raw) {
    String text = raw.trim().toLowerCase(Locale.ROOT);
    try {
      if (text.startsWith("p")) {
        return Duration.parse(text.toUpperCase(Locale.ROOT));
      }
      if (text.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      }
      if (text.endsWith("us")) {
        return Duration.ofNanos(Long.parseLong(text.substring(0, text.length() - 2)) * 1000);
      }
      if (text.endsWith("ns")) {
        return Duration.ofNanos(Long.parseLong(text.substring(0, text.length() - 2)));
      }
      long amount = Long.parseLong(text.substring(0, text.length() - 1));
      switch (text.charAt(text.length() - 1)) {
        case 's':
          return Duration.ofSeconds(amount);
        case 'm':
          return Duration.ofMinutes(amount);
        case 'h':
          return Duration.ofHours(amount);
        case 'd':
          return Duration.ofDays(amount);
        case 'w':
          return Duration.ofDays(7 * amount);
        case 'y':
          return Duration.ofDays(365 * amount); // a year of 365 days: retention periods need no calendar
        default:
          break;
      }
    } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + " must be a duration such as 500ms, 30s, 10m, 2h or PT10M, not '" + raw + "'");
  }
}
