package io.chronix.core.series;

import java.util.Arrays;

/**
 * A growable sequence of (timestamp, value) pairs in primitive arrays. Timestamps are epoch
 * nanoseconds, which keeps line-protocol precision and spans the years 1677 to 2262.
 *
 * <p>Not thread-safe: a buffer that several writers share must guard it.
 */
public final class Points {

  private long[] timestamps;
  private double[] values;
  private int size;

  public Points() {
    this(16);
  }

  public Points(int capacity) {
    timestamps = new long[Math.max(1, capacity)];
    values = new double[Math.max(1, capacity)];
  }

  /** Wraps the first {@code size} entries of the given arrays without copying. */
  public static Points wrap(long[] timestamps, double[] values, int size) {
    if (timestamps.length < size || values.length < size) {
      throw new IllegalArgumentException("arrays shorter than size " + size);
    }
    Points points = new Points(0);
    points.timestamps = timestamps;
    points.values = values;
    points.size = size;
    return points;
  }

  public void add(long timestamp, double value) {
    if (size == timestamps.length) {
      int capacity = size + (size >> 1) + 1;
      timestamps = Arrays.copyOf(timestamps, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    timestamps[size] = timestamp;
    values[size] = value;
    size++;
  }

  public void addAll(Points other) {
    int count = other.size;
    if (size + count > timestamps.length) {
      int capacity = Math.max(size + count, size + (size >> 1) + 1);
      timestamps = Arrays.copyOf(timestamps, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    // read through other after growing: other may be this
    System.arraycopy(other.timestamps, 0, timestamps, size, count);
    System.arraycopy(other.values, 0, values, size, count);
    size += count;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public long timestamp(int index) {
    return timestamps[index];
  }

  public double value(int index) {
    return values[index];
  }

  /** The backing array; valid entries are [0, size). */
  public long[] timestampArray() {
    return timestamps;
  }

  /** The backing array; valid entries are [0, size). */
  public double[] valueArray() {
    return values;
  }

  public void clear() {
    size = 0;
  }

  /** A copy of the points in [from, to). */
  public Points slice(int from, int to) {
    return wrap(Arrays.copyOfRange(timestamps, from, to), Arrays.copyOfRange(values, from, to), to - from);
  }

  public boolean isSorted() {
    for (int i = 1; i < size; i++) {
      if (timestamps[i] < timestamps[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sorts by timestamp and collapses points with equal timestamps into the one added last
   * (last write wins), in place.
   */
  public void sortAndDeduplicate() {
    if (!isSorted()) {
      sortStable();
    }
    int out = 0;
    for (int i = 0; i < size; i++) {
      if (out > 0 && timestamps[out - 1] == timestamps[i]) {
        values[out - 1] = values[i];
      } else {
        timestamps[out] = timestamps[i];
        values[out] = values[i];
        out++;
      }
    }
    size = out;
  }

  private void sortStable() {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    // object sort is a stable merge sort: among equal timestamps, insertion order is kept
    Arrays.sort(order, (a, b) -> Long.compare(timestamps[a], timestamps[b]));
    long[] sortedTimestamps = new long[size];
    double[] sortedValues = new double[size];
    for (int i = 0; i < size; i++) {
      sortedTimestamps[i] = timestamps[order[i]];
      sortedValues[i] = values[order[i]];
    }
    timestamps = sortedTimestamps;
    values = sortedValues;
  }

  /** The points whose timestamps lie in [fromInclusive, toExclusive), assuming sorted order. */
  public Points clip(long fromInclusive, long toExclusive) {
    int from = lowerBound(fromInclusive);
    int to = lowerBound(toExclusive);
    return slice(from, Math.max(from, to));
  }

  private int lowerBound(long timestamp) {
    int low = 0;
    int high = size;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (timestamps[mid] < timestamp) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Points)) {
      return false;
    }
    Points that = (Points) other;
    if (size != that.size) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      if (timestamps[i] != that.timestamps[i]
          || Double.doubleToRawLongBits(values[i]) != Double.doubleToRawLongBits(that.values[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int hash = size;
    for (int i = 0; i < size; i++) {
      hash = 31 * hash + Long.hashCode(timestamps[i]);
      hash = 31 * hash + Long.hashCode(Double.doubleToRawLongBits(values[i]));
    }
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("Points[").append(size).append("]{");
    for (int i = 0; i < Math.min(size, 8); i++) {
      text.append(i == 0 ? "" : ", ").append(timestamps[i]).append('=').append(values[i]);
    }
    return text.append(size > 8 ? ", ...}" : "}").toString();
  }
}
