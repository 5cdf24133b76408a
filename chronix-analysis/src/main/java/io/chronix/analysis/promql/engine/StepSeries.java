package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.Labels;

/**
 * One series of an instant vector evaluated at every step of a query: a value per step and
 * whether the series is present at that step (PromQL vectors are sparse over time).
 */
final class StepSeries {

  Labels labels;
  final double[] values;
  private final long[] present;
  private int count;

  StepSeries(Labels labels, int steps) {
    this.labels = labels;
    this.values = new double[steps];
    this.present = new long[(steps + 63) >>> 6];
  }

  boolean has(int step) {
    return (present[step >>> 6] & (1L << step)) != 0;
  }

  void set(int step, double value) {
    if (!has(step)) {
      present[step >>> 6] |= 1L << step;
      count++;
    }
    values[step] = value;
  }

  void clear(int step) {
    if (has(step)) {
      present[step >>> 6] &= ~(1L << step);
      count--;
    }
  }

  double get(int step) {
    return values[step];
  }

  int steps() {
    return values.length;
  }

  /** Number of steps at which the series has a value. */
  int count() {
    return count;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** A scalar as the label-less series it becomes at the top of a range query or subquery. */
  static StepSeries ofScalar(double[] values) {
    StepSeries s = new StepSeries(Labels.EMPTY, values.length);
    for (int i = 0; i < values.length; i++) {
      s.set(i, values[i]);
    }
    return s;
  }

  /** The samples at the steps where the series is present, timed by the grid. */
  RawSeries samples(Grid grid) {
    long[] t = new long[count];
    double[] v = new double[count];
    int n = 0;
    for (int i = 0; i < values.length; i++) {
      if (has(i)) {
        t[n] = grid.time(i);
        v[n++] = values[i];
      }
    }
    return new RawSeries(labels, t, v, n);
  }

  StepSeries copyWithLabels(Labels changed) {
    StepSeries copy = new StepSeries(changed, values.length);
    for (int i = 0; i < values.length; i++) {
      if (has(i)) {
        copy.set(i, values[i]);
      }
    }
    return copy;
  }
}
