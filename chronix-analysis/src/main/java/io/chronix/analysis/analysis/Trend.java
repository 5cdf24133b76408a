package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * trend: does the series rise? Answered by the slope of a least-squares line through the values
 * over time in seconds. Time is measured from the first point, because epoch seconds (around 1e9)
 * would cost the regression most of its precision; the intercept is therefore the fitted value at
 * the first timestamp. NaN values are left out.
 *
 * <p>The sums are Commons Math's {@code SimpleRegression}'s (slope, intercept and r² as it gives
 * them, to rounding), taken in two passes over the arrays, means first, then the centred sums,
 * over nanoseconds scaled to seconds at the end: its point-by-point update divides three times a
 * point, a fifth of a trend query over a whole series.
 */
public record Trend() implements Analysis {

  private static final double NANOS_PER_SECOND = 1e9;

  @Override
  public String name() {
    return "trend";
  }

  @Override
  public List<String> arguments() {
    return List.of();
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    int size = series.size();
    long[] timestamps = series.timestampArray();
    double[] values = series.valueArray();
    long start = size == 0 ? 0 : timestamps[0];
    // time in nanoseconds from the first point while summing, in seconds after: no division a point
    long n = 0;
    double sumX = 0;
    double sumY = 0;
    for (int i = 0; i < size; i++) {
      if (!Double.isNaN(values[i])) {
        n++;
        sumX += timestamps[i] - start;
        sumY += values[i];
      }
    }
    double meanX = sumX / n;
    double meanY = sumY / n;
    double sumXX = 0;
    double sumXY = 0;
    double sumYY = 0;
    for (int i = 0; i < size; i++) {
      if (!Double.isNaN(values[i])) {
        double dx = (timestamps[i] - start) - meanX;
        double dy = values[i] - meanY;
        sumXX += dx * dx;
        sumXY += dx * dy;
        sumYY += dy * dy;
      }
    }
    sumXX /= NANOS_PER_SECOND * NANOS_PER_SECOND;
    sumXY /= NANOS_PER_SECOND;
    meanX /= NANOS_PER_SECOND;
    // as SimpleRegression: no line through fewer than two points or through one instant
    double slope = n < 2 || Math.abs(sumXX) < 10 * Double.MIN_VALUE ? Double.NaN : sumXY / sumXX;
    double squaredErrors = Math.max(0, sumYY - sumXY * sumXY / sumXX);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("slope", slope);
    details.put("intercept", meanY - slope * meanX);
    // where the intercept lies, so that a client can draw the line: the first timestamp, epoch ms
    details.put("origin", Math.floorDiv(start, 1_000_000L));
    details.put("r2", n < 2 ? Double.NaN : (sumYY - squaredErrors) / sumYY);
    details.put("points", n);
    return new AnalysisResult(slope > 0, details);
  }
}
