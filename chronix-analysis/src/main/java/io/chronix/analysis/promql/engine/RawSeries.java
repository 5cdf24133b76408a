package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import java.util.Arrays;

/**
 * The samples of one series as a source returns them: millisecond timestamps in ascending order,
 * without duplicates, values as doubles (stale markers included).
 */
public final class RawSeries {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  private final Labels labels;
  private final long[] timestamps;
  private final double[] values;
  private final int size;
  /**
   * False where the samples are known to hold no stale marker: a range selector then takes them as
   * they are, where a pass over every value looked for one (3 % of a rate over a thousand
   * counters' request thread, reading the values a second time).
   */
  private final boolean mayHoldStaleMarkers;

  public RawSeries(Labels labels, long[] timestamps, double[] values, int size) {
    this(labels, timestamps, values, size, true);
  }

  private RawSeries(Labels labels, long[] timestamps, double[] values, int size, boolean mayHoldStaleMarkers) {
    if (timestamps.length < size || values.length < size) {
      throw new IllegalArgumentException("arrays shorter than " + size);
    }
    this.labels = labels;
    this.timestamps = timestamps;
    this.values = values;
    this.size = size;
    this.mayHoldStaleMarkers = mayHoldStaleMarkers;
  }

  /**
   * The series of points with nanosecond timestamps (as the store and the cf functions hold
   * them), sorted: PromQL has milliseconds, so points within one millisecond collapse to the last.
   */
  public static RawSeries fromNanos(Labels labels, Points points) {
    int n = points.size();
    return fromNanos(labels, points.timestampArray(), points.valueArray(), n, new long[n], new double[n]);
  }

  /**
   * As {@link #fromNanos(Labels, Points)}, in the points' own arrays: for points made for this
   * series alone (a series query's answer in the process), which the caller gives up. A new pair
   * of arrays for every series was most of the conversion (8 % of a {@code rate} over 1,000
   * counters, on the request's thread).
   */
  public static RawSeries fromNanosInPlace(Labels labels, Points points) {
    long[] timestamps = points.timestampArray();
    double[] values = points.valueArray(); // the points' own for doubles, a converted copy for others
    return fromNanos(labels, timestamps, values, points.size(), timestamps, values);
  }

  /**
   * Points [0, n) of {@code nanos} and {@code values} into {@code t} and {@code v} (which may be
   * the same arrays: a point is read before any is written at or past it), points within one
   * millisecond collapsed to the last. A timestamp that lies a known whole-millisecond step after
   * a whole-millisecond one is that many milliseconds later, without the division the quick
   * compiler calls the runtime for: a scraped series' points mostly are.
   */
  private static RawSeries fromNanos(Labels labels, long[] nanos, double[] values, int n, long[] t, double[] v) {
    int out = 0;
    boolean stale = false;
    long previousNanos = 0;
    long previousMillis = 0;
    boolean previousWhole = false;
    // a step between two whole-millisecond timestamps of the same sign (so no overflow), in both units
    boolean stepKnown = false;
    long stepNanos = 0;
    long stepMillis = 0;
    for (int i = 0; i < n; i++) {
      long time = nanos[i];
      double value = values[i];
      long delta = time - previousNanos;
      long millis;
      if (stepKnown && delta == stepNanos && (time ^ previousNanos) >= 0) {
        millis = previousMillis + stepMillis; // whole again: previousWhole stays true
      } else {
        millis = Math.floorDiv(time, NANOS_PER_MILLI);
        boolean whole = millis * NANOS_PER_MILLI == time;
        stepKnown = i > 0 && previousWhole && whole && delta > 0 && (time ^ previousNanos) >= 0;
        stepNanos = delta;
        stepMillis = millis - previousMillis;
        previousWhole = whole;
      }
      previousNanos = time;
      previousMillis = millis;
      stale |= StaleMarker.is(value); // a marker a later point of its millisecond replaced counts too: harmless
      if (out > 0 && t[out - 1] == millis) {
        v[out - 1] = value;
      } else {
        t[out] = millis;
        v[out++] = value;
      }
    }
    return new RawSeries(labels, t, v, out, stale);
  }

  public Labels labels() {
    return labels;
  }

  public int size() {
    return size;
  }

  public long timestamp(int index) {
    return timestamps[index];
  }

  public double value(int index) {
    return values[index];
  }

  long[] timestampArray() {
    return timestamps;
  }

  double[] valueArray() {
    return values;
  }

  public RawSeries withLabels(Labels changed) {
    return new RawSeries(changed, timestamps, values, size, mayHoldStaleMarkers);
  }

  /** The same samples without stale markers: range vectors never contain them. */
  RawSeries withoutStaleMarkers() {
    if (!mayHoldStaleMarkers) {
      return this;
    }
    int stale = 0;
    for (int i = 0; i < size; i++) {
      if (StaleMarker.is(values[i])) {
        stale++;
      }
    }
    if (stale == 0) {
      return this;
    }
    long[] t = new long[size - stale];
    double[] v = new double[size - stale];
    int out = 0;
    for (int i = 0; i < size; i++) {
      if (!StaleMarker.is(values[i])) {
        t[out] = timestamps[i];
        v[out++] = values[i];
      }
    }
    return new RawSeries(labels, t, v, out, false);
  }

  /**
   * As {@link #upperBound(long)}, searching forward from {@code from}, which must be at or before
   * the answer (the bound of an earlier, smaller {@code t}): a range function's windows move
   * forward step by step by less than a window, so the bound is a few places on, where a binary
   * search over the whole series took a dozen probes for each end of each step.
   */
  int upperBoundFrom(int from, long t) {
    int i = from;
    while (i < size && timestamps[i] <= t) {
      i++;
    }
    return i;
  }

  /**
   * As {@link #upperBound(long)}, searching on from {@code from}, which must be at or before the
   * answer, in strides that double ({@link Points#lowerBoundFrom}): an instant selector's steps
   * move forward by a step each, which may pass many samples, where a binary search over the whole
   * series took a dozen probes a step (4 % of a {@code sum by} over a day of P4's series). A range
   * function's windows, which move a few samples a step, walk on one sample at a time instead
   * ({@link #upperBoundFrom}).
   */
  int upperBoundOnwards(int from, long t) {
    return t == Long.MAX_VALUE ? size : Points.lowerBoundFrom(timestamps, from, size, t + 1);
  }

  /** Index of the first sample with timestamp > t. */
  int upperBound(long t) {
    int low = 0;
    int high = size;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (timestamps[mid] <= t) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  @Override
  public String toString() {
    return labels + " " + size + " samples " + Arrays.toString(Arrays.copyOf(timestamps, Math.min(size, 5)));
  }
}
