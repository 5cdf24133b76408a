package io.chronix.solr.query;

import io.chronix.core.series.Points;

/**
 * Each series cut down to the points a PromQL instant selector reads at a range query's steps
 * ({@code chronix.steps}): for each step time, the latest point at or before it. The engine takes
 * at each step the latest sample at or before the step time and then asks whether it lies in the
 * lookback window and is not a stale marker, so it finds the same sample among these points as
 * among all of them. A dashboard's {@code sum by} over a day of P4's 117 series at two-minute
 * steps needs 10,000 of their million points; the engine was handed all of them (converted to
 * milliseconds, kept in memory, searched step by step).
 *
 * <p>Timestamps are nanoseconds and step times milliseconds: the engine keeps the last point of
 * each millisecond, so the latest point before the millisecond after the step time is the one it
 * would take.
 */
public final class StepPoints {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  /** The step grid: the first step time and the step, epoch milliseconds. */
  public record Steps(long firstMillis, long stepMillis) {
    public Steps {
      if (stepMillis <= 0) {
        throw new IllegalArgumentException("the step must be positive, not " + stepMillis);
      }
    }

    /**
     * Parses {@code <first>,<step>} (epoch milliseconds, milliseconds).
     *
     * @throws IllegalArgumentException with what is wrong
     */
    public static Steps parse(String text) {
      String[] parts = text.split(",", -1);
      if (parts.length != 2) {
        throw new IllegalArgumentException("expected <first step, epoch ms>,<step, ms>, not '" + text + "'");
      }
      try {
        return new Steps(Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("expected <first step, epoch ms>,<step, ms>, not '" + text + "'");
      }
    }
  }

  private StepPoints() {}

  /**
   * One series cut down to the steps up to {@code lastMillis}: what the collector applies to each
   * series as it is joined ({@link SeriesCollector#collect}), on whichever core joined it.
   */
  public static JoinedSeries of(JoinedSeries joined, Steps steps, long lastMillis) {
    Points points = of(joined.points(), steps, lastMillis);
    return points == joined.points() ? joined
        : new JoinedSeries(joined.joinKey(), joined.fields(), points, joined.summary(), joined.downsampled(),
            joined.windows());
  }

  /**
   * The latest point at or before each step time, each point once; the points themselves where
   * there are no more of them than steps (nothing to gain).
   *
   * @param points sorted by time, as joined series are (checking it cost as much as the cut)
   */
  static Points of(Points points, Steps steps, long lastMillis) {
    if (points == null || points.isEmpty() || lastMillis < steps.firstMillis()) {
      return points;
    }
    long span = lastMillis - steps.firstMillis(); // negative where it overflows: unbounded
    long count = span < 0 ? Long.MAX_VALUE : span / steps.stepMillis() + 1;
    if (count >= points.size()) {
      return points;
    }
    long[] timestamps = points.timestampArray();
    int size = points.size();
    Points kept = new Points(points.type(), (int) count);
    int lastKept = -1;
    int after = 0; // the first point after the last step time: the next step's is not before it
    for (long step = 0; step < count; step++) {
      long t = steps.firstMillis() + step * steps.stepMillis();
      after = Points.lowerBoundFrom(timestamps, after, size, nanosAfter(t)); // a few points on
      int latest = after - 1;
      if (latest > lastKept) {
        kept.addFrom(points, latest);
        lastKept = latest;
      }
    }
    return kept;
  }

  /** The first nanosecond of the millisecond after {@code millis}, saturating. */
  private static long nanosAfter(long millis) {
    long next = millis + 1;
    return next > Long.MAX_VALUE / NANOS_PER_MILLI ? Long.MAX_VALUE
        : next < Long.MIN_VALUE / NANOS_PER_MILLI ? Long.MIN_VALUE : next * NANOS_PER_MILLI;
  }
}
