package io.chronix.core.record;

import io.chronix.core.series.Points;

/**
 * Statistics of one chunk, stored beside the blob so that simple aggregations need not decode it.
 * NaN values are counted but take no part in min, max and sum.
 */
public record RecordStats(long count, double min, double max, double sum, double first, double last) {

  public static RecordStats of(Points points) {
    int n = points.size();
    if (n == 0) {
      throw new IllegalArgumentException("a record holds at least one point");
    }
    return of(points.valueArray(), n); // longs converted, strings and arrays as NaN
  }

  /**
   * Over the value array itself and with min and max spelt out (as {@link Math#min} and
   * {@link Math#max} order -0.0 and 0.0): a query's aggregation over a record its range cuts runs
   * here, and the server's quick JIT compiler inlines neither {@code Points.value} nor Math's
   * methods.
   */
  private static RecordStats of(double[] values, int n) {
    Running running = new Running();
    running.add(values, 0, n);
    return running.stats();
  }

  /**
   * Statistics taken over values given in pieces, in order: the same as over all of them at once,
   * the sum included (one running sum, not partial sums added).
   */
  public static final class Running {
    private long count;
    private double min = Double.NaN;
    private double max = Double.NaN;
    private double sum;
    private boolean any;
    private double first;
    private double last;

    public void add(double[] values, int from, int to) {
      if (from >= to) {
        return;
      }
      if (count == 0) {
        first = values[from];
      }
      last = values[to - 1];
      count += to - from;
      double min = this.min;
      double max = this.max;
      double sum = this.sum;
      boolean any = this.any;
      for (int i = from; i < to; i++) {
        double value = values[i];
        if (value != value) { // NaN
          continue;
        }
        if (!any) {
          min = value;
          max = value;
          any = true;
        } else {
          if (value < min || (value == 0.0 && min == 0.0 && isNegativeZero(value))) {
            min = value;
          }
          if (value > max || (value == 0.0 && max == 0.0 && isNegativeZero(max))) {
            max = value;
          }
        }
        sum += value;
      }
      this.min = min;
      this.max = max;
      this.sum = sum;
      this.any = any;
    }

    /**
     * Adds the figures of {@code size > 0} values taken apart, in order after those added so far:
     * min, max, count, first and last as if the values themselves were added; the sum adds their
     * sum to the running one, which may differ in the last bits from adding them one by one.
     */
    void addSummary(Running values) {
      addSummary(values.count, values.any, values.min, values.max, values.sum, values.first, values.last);
    }

    /**
     * As {@link #addSummary(Running)}, from the figures themselves.
     *
     * @param anyNumber whether any of the values is not NaN (else min, max and sum are ignored)
     */
    void addSummary(long size, boolean anyNumber, double min, double max, double sum, double first, double last) {
      if (size <= 0) {
        throw new IllegalArgumentException("a summary of no values");
      }
      if (count == 0) {
        this.first = first;
      }
      this.last = last;
      count += size;
      if (!anyNumber) {
        return;
      }
      if (!any) {
        this.min = min;
        this.max = max;
        any = true;
      } else {
        if (min < this.min || (min == 0.0 && this.min == 0.0 && isNegativeZero(min))) {
          this.min = min;
        }
        if (max > this.max || (max == 0.0 && this.max == 0.0 && isNegativeZero(this.max))) {
          this.max = max;
        }
      }
      this.sum += sum;
    }

    public long count() {
      return count;
    }

    /** Whether any value added so far is not NaN. */
    boolean anyNumber() {
      return any;
    }

    /** The statistics so far; at least one value must have been added. */
    public RecordStats stats() {
      if (count == 0) {
        throw new IllegalStateException("statistics of no value");
      }
      return new RecordStats(count, min, max, any ? sum : Double.NaN, first, last);
    }
  }

  /**
   * The statistics of this span's points followed by a later span's, the two sharing no
   * timestamp: what the points of both together would give, except that the sum adds two partial
   * sums, which may differ from one running sum in the last bits.
   */
  public RecordStats followedBy(RecordStats later) {
    return with(later, false, true);
  }

  /**
   * The statistics of this span's points together with another span's that shares no timestamp
   * with it, the two interleaving in time: {@code otherFirst} and {@code otherLast} tell whose
   * point comes first and whose last. The sum adds the two partial sums, as {@link #followedBy}.
   */
  public RecordStats with(RecordStats other, boolean otherFirst, boolean otherLast) {
    return new RecordStats(count + other.count, ignoringNaN(min, other.min, Math::min),
        ignoringNaN(max, other.max, Math::max), ignoringNaN(sum, other.sum, Double::sum),
        otherFirst ? other.first : first, otherLast ? other.last : last);
  }

  /** NaN stands for "no value" here: the other side wins; two values combine. */
  private static double ignoringNaN(double a, double b, java.util.function.DoubleBinaryOperator combine) {
    if (Double.isNaN(a)) {
      return b;
    }
    return Double.isNaN(b) ? a : combine.applyAsDouble(a, b);
  }

  /**
   * Whether a zero is -0.0, by its reciprocal: in the server's quick-compiled {@code Running.add}
   * the raw-bits call was seen going through the interpreter's native entry, and P4 holds many
   * series of zeros (perf of a one-hour {@code max}: {@code Running.add} 4.1 % of the samples, 1.6 %
   * by the reciprocal; docs/benchmarks.md).
   */
  private static boolean isNegativeZero(double zero) {
    return 1 / zero < 0;
  }
}
