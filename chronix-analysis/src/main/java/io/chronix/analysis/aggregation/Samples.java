package io.chronix.analysis.aggregation;

import io.chronix.core.series.Points;
import java.util.Arrays;

/**
 * Value arrays for the statistics: a missing measurement is stored as NaN, and one gap must not
 * turn the maximum or the percentile of a whole series into NaN.
 */
public final class Samples {

  private Samples() {}

  /** The values of the series except NaN, in time order. */
  public static double[] withoutNaN(Points series) {
    double[] values = series.valueArray();
    double[] kept = new double[series.size()];
    int count = 0;
    for (int i = 0; i < series.size(); i++) {
      if (!Double.isNaN(values[i])) {
        kept[count++] = values[i];
      }
    }
    return count == kept.length ? kept : Arrays.copyOf(kept, count);
  }
}
