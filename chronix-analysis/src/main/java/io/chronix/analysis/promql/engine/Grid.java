package io.chronix.analysis.promql.engine;

/**
 * The evaluation times of a query or subquery: start, start + interval, ... up to end (epoch
 * milliseconds). An instant query is a grid of one step.
 */
record Grid(long start, long end, long interval) {

  Grid {
    if (interval <= 0) {
      throw new IllegalArgumentException("interval must be positive");
    }
  }

  static Grid instant(long time) {
    return new Grid(time, time, 1);
  }

  int steps() {
    return end < start ? 0 : (int) ((end - start) / interval) + 1;
  }

  long time(int step) {
    return start + step * interval;
  }

  boolean isInstant() {
    return start == end;
  }
}
