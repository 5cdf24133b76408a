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
    double min = Double.NaN;
    double max = Double.NaN;
    double sum = 0;
    boolean any = false;
    for (int i = 0; i < n; i++) {
      double value = points.value(i);
      if (Double.isNaN(value)) {
        continue;
      }
      if (!any) {
        min = value;
        max = value;
        any = true;
      } else {
        min = Math.min(min, value);
        max = Math.max(max, value);
      }
      sum += value;
    }
    return new RecordStats(n, min, max, any ? sum : Double.NaN, points.value(0), points.value(n - 1));
  }
}
