package io.chronix.core.series;

import java.util.Locale;

/** The unit of timestamps on the wire; points are kept in nanoseconds inside. */
public enum Precision {
  NANOSECONDS(1L),
  MICROSECONDS(1_000L),
  MILLISECONDS(1_000_000L),
  SECONDS(1_000_000_000L),
  MINUTES(60_000_000_000L),
  HOURS(3_600_000_000_000L);

  private final long nanos;
  /** The values whose nanoseconds fit into a long: the overflow check without a division. */
  private final long least;
  private final long most;

  Precision(long nanos) {
    this.nanos = nanos;
    this.least = Long.MIN_VALUE / nanos; // rounded towards zero: the least whose product fits
    this.most = Long.MAX_VALUE / nanos;
  }

  /**
   * Accepts InfluxDB's spellings: n/ns, u/us/µ, ms, s, m, h.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Precision parse(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "n":
      case "ns":
        return NANOSECONDS;
      case "u":
      case "us":
      case "µ":
      case "µs":
        return MICROSECONDS;
      case "ms":
        return MILLISECONDS;
      case "s":
        return SECONDS;
      case "m":
        return MINUTES;
      case "h":
        return HOURS;
      default:
        throw new IllegalArgumentException(
            "unsupported precision '" + text + "' (use ns, us, ms, s, m or h)");
    }
  }

  /** @throws ArithmeticException when the instant does not fit into epoch nanoseconds (1677-2262) */
  public long toNanos(long value) {
    // Math.multiplyExact checks large products by dividing, which the quick JIT compiler does in a
    // call into the runtime: 2 % of parsing line protocol, once a timestamp
    if (value < least || value > most) {
      throw new ArithmeticException("long overflow");
    }
    return value * nanos;
  }

  /** Rounds down to this unit. */
  public long fromNanos(long value) {
    return Math.floorDiv(value, nanos);
  }
}
