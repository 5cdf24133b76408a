package io.chronix.analysis.promql.engine;

/**
 * The samples of one series inside one step's range (rangeStart, rangeEnd], handed to a range
 * function with the step's scalar arguments.
 */
final class Window {

  /** A range function's answer for "no value at this step". */
  static final double NO_VALUE = Double.longBitsToDouble(0x7ff8_0000_dead_0001L);

  long[] timestamps;
  double[] values;
  int from;
  int to;
  /** Exclusive lower and inclusive upper bound of the range, epoch milliseconds. */
  long rangeStart;
  long rangeEnd;
  long rangeMillis;
  /** The step's evaluation time (before offset). */
  long evalTime;
  /** The scalar arguments of the call at this step, in argument order. */
  double[] scalars;
  /** The series' size and its falls, found when a function first asks (see {@link #fallsInside}). */
  private int seriesSize;
  private CounterFalls falls;
  private RawSeries series;
  /** Whether {@link #place} placed the window over this series before, and where it ended. */
  private boolean placed;
  private long previousEnd;

  /** The window's samples come from this series now. */
  void over(RawSeries series) {
    this.series = series;
    timestamps = series.timestampArray();
    values = series.valueArray();
    seriesSize = series.size();
    falls = null;
    placed = false;
  }

  /**
   * Places the window over (end - rangeMillis, end] of its series; whether a sample is inside.
   * Where windows move forward by at most their range, as a range query's steps do, the bounds walk
   * on from the last place a few samples; elsewhere (the first window, {@code @}, windows moving
   * back) they are searched.
   */
  boolean place(long end) {
    long start = end - rangeMillis;
    if (placed && end >= previousEnd && end - previousEnd <= rangeMillis) {
      from = series.upperBoundFrom(from, start);
      to = series.upperBoundFrom(to, end);
    } else {
      from = series.upperBound(start);
      to = series.upperBound(end);
    }
    placed = true;
    previousEnd = end;
    rangeStart = start;
    rangeEnd = end;
    return to > from;
  }

  static boolean isNoValue(double value) {
    return Double.doubleToRawLongBits(value) == 0x7ff8_0000_dead_0001L;
  }

  int size() {
    return to - from;
  }

  long t(int i) {
    return timestamps[from + i];
  }

  double v(int i) {
    return values[from + i];
  }

  double first() {
    return values[from];
  }

  double last() {
    return values[to - 1];
  }

  long firstTime() {
    return timestamps[from];
  }

  long lastTime() {
    return timestamps[to - 1];
  }

  /** Whether a value inside the window falls below the one before it (a counter's reset). */
  boolean fallsInside() {
    if (falls == null) {
      falls = CounterFalls.of(values, seriesSize);
    }
    return falls.inside(from, to);
  }

  double[] copyValues() {
    double[] copy = new double[size()];
    System.arraycopy(values, from, copy, 0, copy.length);
    return copy;
  }
}
