package io.chronix.core.rollup;

import io.chronix.core.series.Points;
import java.util.Arrays;

/**
 * Per-interval statistics of a run of points, as a rollup tier keeps them: for each interval
 * (aligned to multiples of the interval since the epoch, as the {@code downsample} function
 * aligns them) the number of points, the number of non-NaN values, their minimum, maximum and sum,
 * and the first and last value (NaN included: they are positional). Statistics of runs that do
 * not overlap in time combine into those of the joined run: exactly for counts, minimum, maximum,
 * first and last; the sum of two partial sums may differ from the sum of all values in its last
 * bits (floating point addition is not associative).
 */
public final class BucketStats {

  private final long intervalNanos;
  private long[] starts;
  private long[] counts;
  private long[] valueCounts;
  private double[] mins;
  private double[] maxs;
  private double[] sums;
  private double[] firsts;
  private double[] lasts;
  private int size;

  public BucketStats(long intervalNanos, int capacity) {
    if (intervalNanos <= 0) {
      throw new IllegalArgumentException("interval must be positive, got " + intervalNanos);
    }
    this.intervalNanos = intervalNanos;
    int initial = Math.max(1, capacity);
    starts = new long[initial];
    counts = new long[initial];
    valueCounts = new long[initial];
    mins = new double[initial];
    maxs = new double[initial];
    sums = new double[initial];
    firsts = new double[initial];
    lasts = new double[initial];
  }

  /** The statistics of a sorted run of numeric points. */
  public static BucketStats of(Points points, long intervalNanos) {
    BucketStats stats = new BucketStats(intervalNanos, 16);
    for (int i = 0; i < points.size(); i++) {
      stats.add(points.timestamp(i), points.value(i));
    }
    return stats;
  }

  public long intervalNanos() {
    return intervalNanos;
  }

  public int size() {
    return size;
  }

  /** Adds a point later than every point added before. */
  public void add(long timestampNanos, double value) {
    long bucket = Math.floorDiv(timestampNanos, intervalNanos) * intervalNanos;
    if (size == 0 || starts[size - 1] != bucket) {
      if (size > 0 && starts[size - 1] > bucket) {
        throw new IllegalArgumentException("points must come in time order: " + timestampNanos);
      }
      append(bucket, 0, 0, Double.NaN, Double.NaN, 0, value, value);
    }
    int last = size - 1;
    counts[last]++;
    lasts[last] = value;
    if (!Double.isNaN(value)) {
      valueCounts[last]++;
      mins[last] = Double.isNaN(mins[last]) ? value : Math.min(mins[last], value);
      maxs[last] = Double.isNaN(maxs[last]) ? value : Math.max(maxs[last], value);
      sums[last] += value;
    }
  }

  /** Appends one interval's statistics (intervals in time order; decoding and combining). */
  public void append(long start, long count, long valueCount, double min, double max, double sum, double first,
      double last) {
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
    }
    starts[size] = start;
    counts[size] = count;
    valueCounts[size] = valueCount;
    mins[size] = min;
    maxs[size] = max;
    sums[size] = sum;
    firsts[size] = first;
    lasts[size] = last;
    size++;
  }

  /**
   * These statistics followed by those of a later run (its first point after this run's last):
   * an interval both share combines.
   */
  public BucketStats then(BucketStats later) {
    if (later.intervalNanos != intervalNanos) {
      throw new IllegalArgumentException("intervals differ: " + intervalNanos + " and " + later.intervalNanos);
    }
    BucketStats joined = new BucketStats(intervalNanos, size + later.size);
    for (int i = 0; i < size; i++) {
      joined.append(starts[i], counts[i], valueCounts[i], mins[i], maxs[i], sums[i], firsts[i], lasts[i]);
    }
    for (int j = 0; j < later.size; j++) {
      int last = joined.size - 1;
      if (last >= 0 && joined.starts[last] == later.starts[j]) {
        joined.counts[last] += later.counts[j];
        joined.valueCounts[last] += later.valueCounts[j];
        joined.mins[last] = minIgnoringNaN(joined.mins[last], later.mins[j]);
        joined.maxs[last] = maxIgnoringNaN(joined.maxs[last], later.maxs[j]);
        joined.sums[last] += later.sums[j];
        joined.lasts[last] = later.lasts[j];
      } else if (last >= 0 && joined.starts[last] > later.starts[j]) {
        throw new IllegalArgumentException("the later run starts before this one ends");
      } else {
        joined.append(later.starts[j], later.counts[j], later.valueCounts[j], later.mins[j], later.maxs[j],
            later.sums[j], later.firsts[j], later.lasts[j]);
      }
    }
    return joined;
  }

  /** The same statistics over a coarser interval, a multiple of this one. */
  public BucketStats rebucket(long coarserNanos) {
    if (coarserNanos % intervalNanos != 0) {
      throw new IllegalArgumentException(coarserNanos + " ns is no multiple of " + intervalNanos + " ns");
    }
    BucketStats coarse = new BucketStats(coarserNanos, size);
    for (int i = 0; i < size; i++) {
      long start = Math.floorDiv(starts[i], coarserNanos) * coarserNanos;
      int last = coarse.size - 1;
      if (last >= 0 && coarse.starts[last] == start) {
        coarse.counts[last] += counts[i];
        coarse.valueCounts[last] += valueCounts[i];
        coarse.mins[last] = minIgnoringNaN(coarse.mins[last], mins[i]);
        coarse.maxs[last] = maxIgnoringNaN(coarse.maxs[last], maxs[i]);
        coarse.sums[last] += sums[i];
        coarse.lasts[last] = lasts[i];
      } else {
        coarse.append(start, counts[i], valueCounts[i], mins[i], maxs[i], sums[i], firsts[i], lasts[i]);
      }
    }
    return coarse;
  }

  private static double minIgnoringNaN(double a, double b) {
    return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
  }

  private static double maxIgnoringNaN(double a, double b) {
    return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
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
}
