package io.chronix.analysis.transformation;

import io.chronix.analysis.Aggregation;
import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.List;

/**
 * downsample: one aggregated point per interval. Buckets are aligned to multiples of the interval
 * since the epoch, not to the first point, so that series downsampled in different queries line
 * up; each point is stamped at its bucket start, and empty buckets produce no point.
 */
public record Downsample(long intervalNanos, Aggregation aggregation, List<String> arguments)
    implements Transformation {

  public Downsample {
    if (intervalNanos <= 0) {
      throw new IllegalArgumentException("interval must be positive, got " + intervalNanos);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "downsample";
  }

  @Override
  public Points apply(Points series) {
    Points downsampled = new Points();
    int start = 0;
    while (start < series.size()) {
      long bucket = Math.floorDiv(series.timestamp(start), intervalNanos) * intervalNanos;
      int end = start;
      while (end < series.size()
          && Math.floorDiv(series.timestamp(end), intervalNanos) * intervalNanos == bucket) {
        end++;
      }
      downsampled.add(bucket, aggregation.apply(series.slice(start, end)));
      start = end;
    }
    return downsampled;
  }
}
