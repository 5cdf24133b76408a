package io.chronix.ingest.protocol.opentsdb;

import io.chronix.ingest.protocol.WireNumbers;
import java.math.BigDecimal;

/**
 * OpenTSDB's rule for timestamps: up to 10 integer digits are seconds, 11 to 13 milliseconds,
 * more is an error (so are negative ones). A fraction is kept to the nanosecond; OpenTSDB itself
 * accepts only {@code seconds.mmm}, which is one case of it.
 */
final class OpenTsdbTimestamps {

  private static final BigDecimal FIRST_MILLIS = BigDecimal.TEN.pow(10);
  private static final BigDecimal BEYOND_MILLIS = BigDecimal.TEN.pow(13);

  private OpenTsdbTimestamps() {}

  static long nanos(String raw) {
    return nanos(WireNumbers.decimal(raw, "timestamp"));
  }

  static long nanos(BigDecimal timestamp) {
    if (timestamp.signum() < 0) {
      throw new IllegalArgumentException("timestamp " + timestamp.toPlainString() + " is negative");
    }
    if (timestamp.compareTo(FIRST_MILLIS) < 0) {
      return WireNumbers.nanos(timestamp, 9, "timestamp");
    }
    if (timestamp.compareTo(BEYOND_MILLIS) < 0) {
      return WireNumbers.nanos(timestamp, 6, "timestamp");
    }
    throw new IllegalArgumentException("timestamp " + timestamp.toPlainString()
        + " has more than 13 digits: neither seconds nor milliseconds");
  }
}
