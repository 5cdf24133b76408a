package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.rollup.BucketStats;

/**
 * A series' values at every step of a range query from its windows of a tier ({@link TierPlan}):
 * each evaluation time t (less the offset) is a multiple of the tier, so the window (t - range, t]
 * is the tier's windows starting in [t - range, t - tier], and the latest sample at or before t is
 * the last of the latest window starting at or before t - tier.
 */
final class TierSteps {

  private TierSteps() {}

  /** An instant selector: the latest sample in (t - lookback, t] unless it is a stale marker. */
  static StepSeries instant(Labels labels, BucketStats windows, Grid grid, long offset, long lookback,
      boolean timestamps) {
    StepSeries out = new StepSeries(labels, grid.steps());
    for (int step = 0; step < grid.steps(); step++) {
      long t = grid.time(step) - offset;
      int latest = windows.firstFrom(t - windows.interval() + 1) - 1;
      if (latest >= 0 && windows.lastTime(latest) > t - lookback && !StaleMarker.is(windows.last(latest))) {
        out.set(step, timestamps ? windows.lastTime(latest) / 1000.0 : windows.last(latest));
      }
    }
    return out;
  }

  /** One of {@link TierPlan#FUNCTIONS} over (t - range, t] at every step. */
  static StepSeries range(Labels labels, BucketStats windows, String function, Grid grid, long offset, long range) {
    StepSeries out = new StepSeries(labels, grid.steps());
    for (int step = 0; step < grid.steps(); step++) {
      long t = grid.time(step) - offset;
      int from = windows.firstFrom(t - range);
      int to = windows.firstFrom(t);
      if (to > from) {
        out.set(step, value(function, windows, from, to));
      }
    }
    return out;
  }

  /** As RangeFunctions computes it from the samples; windows hold no NaN (the source promises). */
  private static double value(String function, BucketStats windows, int from, int to) {
    switch (function) {
      case "last_over_time":
        return windows.last(to - 1);
      case "min_over_time":
      case "max_over_time": {
        boolean max = function.equals("max_over_time");
        double best = max ? windows.max(from) : windows.min(from);
        for (int i = from + 1; i < to; i++) {
          double v = max ? windows.max(i) : windows.min(i);
          if (max ? v > best : v < best) {
            best = v;
          }
        }
        return best;
      }
      default:
        break;
    }
    long count = 0;
    KahanSum sum = new KahanSum();
    for (int i = from; i < to; i++) {
      count += windows.count(i);
      sum.add(windows.sum(i));
    }
    return switch (function) {
      case "count_over_time" -> count;
      case "sum_over_time" -> sum.value();
      case "avg_over_time" -> sum.value() / count;
      default -> throw new IllegalArgumentException("no tier answers " + function);
    };
  }
}
