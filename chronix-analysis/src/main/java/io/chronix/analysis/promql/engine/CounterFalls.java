package io.chronix.analysis.promql.engine;

import java.util.Arrays;

/**
 * Where a series' values fall below the value before them (a counter's resets), found in one pass
 * and asked window by window. {@code rate} looked for resets sample by sample in every window, and
 * a window of 5 minutes at steps of a minute holds each sample five times: the search was most of
 * {@link ExtrapolatedRate}'s time over counters that rarely reset. A window without
 * a fall skips it; one with a fall still adds the values back one by one, so sums come out as
 * before, bit for bit.
 */
final class CounterFalls {

  private final int[] falls;
  private final int count;
  /** The first fall after the last window's first sample: windows mostly move forward. */
  private int next;

  private CounterFalls(int[] falls, int count) {
    this.falls = falls;
    this.count = count;
  }

  /** The falls among values[0, size): indices i with values[i] below values[i - 1] (not NaN). */
  static CounterFalls of(double[] values, int size) {
    int[] falls = new int[8];
    int count = 0;
    for (int i = 1; i < size; i++) {
      if (values[i] < values[i - 1]) {
        if (count == falls.length) {
          falls = Arrays.copyOf(falls, count * 2);
        }
        falls[count++] = i;
      }
    }
    return new CounterFalls(falls, count);
  }

  /** Whether a value falls inside the window [from, to), after its first sample. */
  boolean inside(int from, int to) {
    if (next > 0 && falls[next - 1] > from) { // the window moved back
      next = 0;
    }
    while (next < count && falls[next] <= from) {
      next++;
    }
    return next < count && falls[next] < to;
  }
}
