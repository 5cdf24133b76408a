package io.chronix.core.rollup;

import io.chronix.core.series.Points;

/**
 * What a rollup record holds of its record's points for one tier: the statistics per downsample
 * interval ({@code [start, start + tier)}, nanoseconds) and per PromQL window ({@code (start,
 * start + tier]}, milliseconds, points of one millisecond collapsed to the last). Rollups written
 * in format version 1 have no windows (null): PromQL cannot use them.
 */
public record RollupStats(BucketStats intervals, BucketStats windows) {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  /** @param tierNanos the tier, a whole number of milliseconds */
  public static RollupStats of(Points points, long tierNanos) {
    return new RollupStats(BucketStats.of(points, tierNanos), BucketStats.windows(points, tierNanos / NANOS_PER_MILLI));
  }

  /** The downsample intervals alone, for queries that need no windows. */
  public static RollupStats intervalsOf(Points points, long tierNanos) {
    return new RollupStats(BucketStats.of(points, tierNanos), null);
  }

  /** These statistics followed by those of a later run. */
  public RollupStats then(RollupStats later) {
    return new RollupStats(intervals.then(later.intervals),
        windows == null || later.windows == null ? null : windows.then(later.windows));
  }

  /** Only the intervals and windows wholly inside [fromMillis, toMillis] (both inclusive). */
  public RollupStats within(long fromMillis, long toMillis) {
    return new RollupStats(intervals.within(nanos(fromMillis), nanos(toMillis) + NANOS_PER_MILLI),
        windows == null ? null : windows.within(fromMillis, after(toMillis)));
  }

  /** Without the intervals and windows that share a moment with [fromMillis, toMillis] (both inclusive). */
  public RollupStats without(long fromMillis, long toMillis) {
    return new RollupStats(intervals.without(nanos(fromMillis), nanos(toMillis) + NANOS_PER_MILLI),
        windows == null ? null : windows.without(fromMillis, after(toMillis)));
  }

  /** Whether neither section holds a point (a window can outlive the interval of its last point). */
  public boolean isEmpty() {
    return intervals.size() == 0 && (windows == null || windows.size() == 0);
  }

  private static long after(long millis) {
    return millis == Long.MAX_VALUE ? millis : millis + 1;
  }

  /** Milliseconds as nanoseconds, saturating at the ends of time (ranges without bounds). */
  private static long nanos(long millis) {
    if (millis >= Long.MAX_VALUE / NANOS_PER_MILLI - 1) {
      return Long.MAX_VALUE - NANOS_PER_MILLI;
    }
    if (millis <= Long.MIN_VALUE / NANOS_PER_MILLI) {
      return Long.MIN_VALUE;
    }
    return millis * NANOS_PER_MILLI;
  }
}
