package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * frequency: did events suddenly become more frequent? The series is cut into windows of a fixed
 * length and the number of points per window compared with the previous window; the series
 * matches if the count grows by more than the threshold from one window to the next.
 *
 * <p>As in Chronix, the first window starts at the first point and every further window starts at
 * the first point after the previous window ended. Silent stretches therefore produce no empty
 * windows: a burst after a pause is compared with the last activity, not with the pause.
 */
public record Frequency(long windowNanos, double threshold, List<String> arguments)
    implements Analysis {

  public Frequency {
    if (windowNanos <= 0) {
      throw new IllegalArgumentException("window must be positive, got " + windowNanos);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "frequency";
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    long windows = 0;
    long previousCount = -1;
    long maxIncrease = 0;
    boolean matches = false;
    int start = 0;
    while (start < series.size()) {
      long windowStart = series.timestamp(start);
      int end = start;
      while (end < series.size() && series.timestamp(end) - windowStart < windowNanos) {
        end++;
      }
      long count = end - start;
      if (previousCount >= 0) {
        long increase = count - previousCount;
        maxIncrease = windows == 1 ? increase : Math.max(maxIncrease, increase);
        matches |= increase > threshold;
      }
      previousCount = count;
      windows++;
      start = end;
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("windows", windows);
    details.put("maxIncrease", maxIncrease);
    return new AnalysisResult(matches, details);
  }
}
