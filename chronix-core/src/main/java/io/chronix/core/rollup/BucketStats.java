package io.chronix.core.rollup;

import io.chronix.core.series.Points;
import java.util.Arrays;

/**
 * Per-interval statistics of a run of points, as a rollup tier keeps them: for each interval
 * (aligned to multiples of the interval since the epoch) the number of points, the number of
 * non-NaN values, their minimum, maximum and sum, the first and last value (NaN included: they are
 * positional) and the timestamps of the first and last point. Statistics of runs that do not
 * overlap in time combine into those of the joined run: exactly for counts, minimum, maximum,
 * first, last and the timestamps; the sum of two partial sums may differ from the sum of all values
 * in its last bits (floating point addition is not associative).
 *
 * <p>Intervals are closed where the {@code downsample} function closes them, at their start
 * ({@code [start, start + interval)}), or, {@link #isRightClosed right-closed}, at their end
 * ({@code (start, start + interval]}), as PromQL's windows {@code (t - range, t]} are: a point
 * exactly on a boundary belongs to another interval in each. Timestamps are in whatever unit the
 * points have (nanoseconds for downsample intervals, milliseconds for PromQL windows).
 */
public final class BucketStats {

  private final long interval;
  private final boolean rightClosed;
  private long[] starts;
  private long[] counts;
  private long[] valueCounts;
  private double[] mins;
  private double[] maxs;
  private double[] sums;
  private double[] firsts;
  private double[] lasts;
  private long[] firstTimes;
  private long[] lastTimes;
  private int size;

  public BucketStats(long interval, int capacity) {
    this(interval, false, capacity);
  }

  public BucketStats(long interval, boolean rightClosed, int capacity) {
    if (interval <= 0) {
      throw new IllegalArgumentException("interval must be positive, got " + interval);
    }
    this.interval = interval;
    this.rightClosed = rightClosed;
    int initial = Math.max(1, capacity);
    starts = new long[initial];
    counts = new long[initial];
    valueCounts = new long[initial];
    mins = new double[initial];
    maxs = new double[initial];
    sums = new double[initial];
    firsts = new double[initial];
    lasts = new double[initial];
    firstTimes = new long[initial];
    lastTimes = new long[initial];
  }

  /** The statistics of a sorted run of numeric points over intervals {@code [start, start + interval)}. */
  public static BucketStats of(Points points, long intervalNanos) {
    BucketStats stats = new BucketStats(intervalNanos, 16);
    for (int i = 0; i < points.size(); i++) {
      stats.add(points.timestamp(i), points.value(i));
    }
    return stats;
  }

  /**
   * The statistics of a sorted run of points as PromQL sees them: timestamps in milliseconds, the
   * points of one millisecond collapsed to the last (as the PromQL source reads them), intervals
   * {@code (start, start + interval]}.
   */
  public static BucketStats windows(Points points, long intervalMillis) {
    BucketStats stats = new BucketStats(intervalMillis, true, 16);
    for (int i = 0; i < points.size(); i++) {
      long millis = Math.floorDiv(points.timestamp(i), 1_000_000L);
      if (i + 1 < points.size() && Math.floorDiv(points.timestamp(i + 1), 1_000_000L) == millis) {
        continue; // a later point of the same millisecond wins
      }
      stats.add(millis, points.value(i));
    }
    return stats;
  }

  public long interval() {
    return interval;
  }

  public boolean isRightClosed() {
    return rightClosed;
  }

  public int size() {
    return size;
  }

  /** The start of the interval that holds a timestamp. */
  public long bucketOf(long timestamp) {
    return Math.floorDiv(rightClosed ? timestamp - 1 : timestamp, interval) * interval;
  }

  /** Adds a point later than every point added before. */
  public void add(long timestamp, double value) {
    long bucket = bucketOf(timestamp);
    if (size == 0 || starts[size - 1] != bucket) {
      if (size > 0 && starts[size - 1] > bucket) {
        throw new IllegalArgumentException("points must come in time order: " + timestamp);
      }
      append(bucket, 0, 0, Double.NaN, Double.NaN, 0, value, value, timestamp, timestamp);
    }
    int last = size - 1;
    counts[last]++;
    lasts[last] = value;
    lastTimes[last] = timestamp;
    if (!Double.isNaN(value)) {
      valueCounts[last]++;
      mins[last] = Double.isNaN(mins[last]) ? value : Math.min(mins[last], value);
      maxs[last] = Double.isNaN(maxs[last]) ? value : Math.max(maxs[last], value);
      sums[last] += value;
    }
  }

  /** Appends one interval's statistics (intervals in time order; decoding and combining). */
  public void append(long start, long count, long valueCount, double min, double max, double sum, double first,
      double last, long firstTime, long lastTime) {
    if (size == starts.length) {
      int grown = size * 2;
      starts = Arrays.copyOf(starts, grown);
      counts = Arrays.copyOf(counts, grown);
      valueCounts = Arrays.copyOf(valueCounts, grown);
      mins = Arrays.copyOf(mins, grown);
      maxs = Arrays.copyOf(maxs, grown);
      sums = Arrays.copyOf(sums, grown);
      firsts = Arrays.copyOf(firsts, grown);
      lasts = Arrays.copyOf(lasts, grown);
      firstTimes = Arrays.copyOf(firstTimes, grown);
      lastTimes = Arrays.copyOf(lastTimes, grown);
    }
    starts[size] = start;
    counts[size] = count;
    valueCounts[size] = valueCount;
    mins[size] = min;
    maxs[size] = max;
    sums[size] = sum;
    firsts[size] = first;
    lasts[size] = last;
    firstTimes[size] = firstTime;
    lastTimes[size] = lastTime;
    size++;
  }

  private void appendFrom(BucketStats other, int j, long start) {
    append(start, other.counts[j], other.valueCounts[j], other.mins[j], other.maxs[j], other.sums[j],
        other.firsts[j], other.lasts[j], other.firstTimes[j], other.lastTimes[j]);
  }

  /** Folds a later interval's statistics into this one's last. */
  private void foldIntoLast(BucketStats other, int j) {
    int last = size - 1;
    counts[last] += other.counts[j];
    valueCounts[last] += other.valueCounts[j];
    mins[last] = minIgnoringNaN(mins[last], other.mins[j]);
    maxs[last] = maxIgnoringNaN(maxs[last], other.maxs[j]);
    sums[last] += other.sums[j];
    lasts[last] = other.lasts[j];
    lastTimes[last] = other.lastTimes[j];
  }

  /**
   * These statistics followed by those of a later run (its first point after this run's last):
   * an interval both share combines.
   */
  public BucketStats then(BucketStats later) {
    if (later.interval != interval || later.rightClosed != rightClosed) {
      throw new IllegalArgumentException("intervals differ: " + this + " and " + later);
    }
    BucketStats joined = new BucketStats(interval, rightClosed, size + later.size);
    for (int i = 0; i < size; i++) {
      joined.appendFrom(this, i, starts[i]);
    }
    for (int j = 0; j < later.size; j++) {
      int last = joined.size - 1;
      if (last >= 0 && joined.starts[last] == later.starts[j]) {
        joined.foldIntoLast(later, j);
      } else if (last >= 0 && joined.starts[last] > later.starts[j]) {
        throw new IllegalArgumentException("the later run starts before this one ends");
      } else {
        joined.appendFrom(later, j, later.starts[j]);
      }
    }
    return joined;
  }

  /** The same statistics over a coarser interval, a multiple of this one. */
  public BucketStats rebucket(long coarser) {
    if (coarser % interval != 0) {
      throw new IllegalArgumentException(coarser + " is no multiple of " + interval);
    }
    BucketStats coarse = new BucketStats(coarser, rightClosed, size);
    for (int i = 0; i < size; i++) {
      long start = Math.floorDiv(starts[i], coarser) * coarser;
      int last = coarse.size - 1;
      if (last >= 0 && coarse.starts[last] == start) {
        coarse.foldIntoLast(this, i);
      } else {
        coarse.appendFrom(this, i, start);
      }
    }
    return coarse;
  }

  /** The intervals wholly inside [from, toExclusive): the others hold points outside it. */
  public BucketStats within(long from, long toExclusive) {
    BucketStats kept = new BucketStats(interval, rightClosed, size);
    for (int i = 0; i < size; i++) {
      if (lowest(i) >= from && highest(i) < toExclusive) {
        kept.appendFrom(this, i, starts[i]);
      }
    }
    return kept;
  }

  /** Without the intervals that share a moment with [from, toExclusive): deleted points must not show. */
  public BucketStats without(long from, long toExclusive) {
    BucketStats kept = new BucketStats(interval, rightClosed, size);
    for (int i = 0; i < size; i++) {
      if (highest(i) < from || lowest(i) >= toExclusive) {
        kept.appendFrom(this, i, starts[i]);
      }
    }
    return kept;
  }

  /** The first moment interval i covers. */
  private long lowest(int i) {
    return rightClosed ? starts[i] + 1 : starts[i];
  }

  /** The last moment interval i covers. */
  private long highest(int i) {
    return rightClosed ? starts[i] + interval : starts[i] + interval - 1;
  }

  /** The smaller, NaN only where both are (as the statistics combine). */
  public static double minIgnoringNaN(double a, double b) {
    return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
  }

  public static double maxIgnoringNaN(double a, double b) {
    return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
  }

  /** The index of the first interval that starts at or after {@code start} ({@link #size} if none does). */
  public int firstFrom(long start) {
    int found = Arrays.binarySearch(starts, 0, size, start); // starts are distinct
    return found >= 0 ? found : -found - 1;
  }

  public long start(int i) {
    return starts[i];
  }

  public long count(int i) {
    return counts[i];
  }

  public long valueCount(int i) {
    return valueCounts[i];
  }

  /** NaN when the interval holds no number. */
  public double min(int i) {
    return mins[i];
  }

  public double max(int i) {
    return maxs[i];
  }

  /** NaN when the interval holds no number (as the sum aggregation answers). */
  public double sum(int i) {
    return valueCounts[i] == 0 ? Double.NaN : sums[i];
  }

  public double first(int i) {
    return firsts[i];
  }

  public double last(int i) {
    return lasts[i];
  }

  public long firstTime(int i) {
    return firstTimes[i];
  }

  public long lastTime(int i) {
    return lastTimes[i];
  }

  /** The same intervals with the same statistics, doubles bit for bit (NaN equal to NaN). */
  @Override
  public boolean equals(Object other) {
    if (!(other instanceof BucketStats that) || that.interval != interval || that.rightClosed != rightClosed
        || that.size != size) {
      return false;
    }
    return Arrays.equals(starts, 0, size, that.starts, 0, size)
        && Arrays.equals(counts, 0, size, that.counts, 0, size)
        && Arrays.equals(valueCounts, 0, size, that.valueCounts, 0, size)
        && Arrays.equals(mins, 0, size, that.mins, 0, size)
        && Arrays.equals(maxs, 0, size, that.maxs, 0, size)
        && Arrays.equals(sums, 0, size, that.sums, 0, size)
        && Arrays.equals(firsts, 0, size, that.firsts, 0, size)
        && Arrays.equals(lasts, 0, size, that.lasts, 0, size)
        && Arrays.equals(firstTimes, 0, size, that.firstTimes, 0, size)
        && Arrays.equals(lastTimes, 0, size, that.lastTimes, 0, size);
  }

  @Override
  public int hashCode() {
    int hash = Long.hashCode(interval) * 31 + size;
    for (int i = 0; i < size; i++) {
      hash = hash * 31 + Long.hashCode(starts[i]) + Long.hashCode(counts[i]) + Double.hashCode(sums[i]);
    }
    return hash;
  }

  @Override
  public String toString() {
    return size + " intervals of " + interval + (rightClosed ? " (closed at their end)" : "");
  }
}
