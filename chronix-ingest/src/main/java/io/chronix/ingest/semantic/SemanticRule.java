package io.chronix.ingest.semantic;

import io.chronix.analysis.Transformation;
import io.chronix.core.chunk.Chunker;
import io.chronix.core.series.Points;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.regex.Pattern;

/**
 * Lossy storage for series whose names match a pattern: aggregation to a coarser interval, then
 * rounding to significant digits, then chunks encoded with a Date-Delta Compaction threshold.
 */
public record SemanticRule(String pattern, Pattern names, Transformation downsample, int significantDigits,
    long ddcThresholdNanos, Chunker chunker) {

  public boolean matches(String name) {
    return names.matcher(name).matches();
  }

  /** Whether the rule changes any point (and not only how chunks are cut and compressed). */
  public boolean isLossy() {
    return downsample != null || significantDigits > 0 || ddcThresholdNanos > 0;
  }

  /** The points as they will be stored. */
  public Points apply(Points sorted) {
    Points points = downsample == null ? sorted : downsample.apply(sorted);
    if (significantDigits <= 0) {
      return points;
    }
    MathContext digits = new MathContext(significantDigits);
    Points rounded = new Points(points.size());
    for (int i = 0; i < points.size(); i++) {
      double value = points.value(i);
      boolean finite = !Double.isNaN(value) && !Double.isInfinite(value) && value != 0;
      rounded.add(points.timestamp(i), finite ? new BigDecimal(value).round(digits).doubleValue() : value);
    }
    return rounded;
  }
}
