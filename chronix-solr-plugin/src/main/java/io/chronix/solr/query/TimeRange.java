package io.chronix.solr.query;

/**
 * The time range of a query in epoch milliseconds, both ends inclusive: a point belongs to it
 * when the millisecond it falls into does.
 */
public record TimeRange(long fromMillis, long toMillis) {

  public static final TimeRange ALL = new TimeRange(Long.MIN_VALUE, Long.MAX_VALUE);

  public TimeRange {
    if (fromMillis > toMillis) {
      throw new IllegalArgumentException("start " + fromMillis + " lies after end " + toMillis);
    }
  }

  /** First nanosecond inside the range. */
  public long fromNanos() {
    return saturatedNanos(fromMillis);
  }

  /** First nanosecond after the range (Long.MAX_VALUE when open). */
  public long toNanosExclusive() {
    return toMillis == Long.MAX_VALUE ? Long.MAX_VALUE : saturatedNanos(toMillis + 1);
  }

  /** Whether the millisecond lies in the range. */
  public boolean contains(long millis) {
    return millis >= fromMillis && millis <= toMillis;
  }

  public boolean isAll() {
    return fromMillis == Long.MIN_VALUE && toMillis == Long.MAX_VALUE;
  }

  private static long saturatedNanos(long millis) {
    if (millis > Long.MAX_VALUE / 1_000_000L) {
      return Long.MAX_VALUE;
    }
    if (millis < Long.MIN_VALUE / 1_000_000L) {
      return Long.MIN_VALUE;
    }
    return millis * 1_000_000L;
  }
}
