package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.List;

/**
 * Chronix "vector": drops points a plot would not miss because they lie on the straight line
 * between the points that are kept.
 *
 * <p>The rule, applied left to right: the first point is kept and becomes the anchor. A point
 * {@code i} (not the last) is dropped if the line from the anchor to point {@code i+1} passes
 * within {@code tolerance} (vertical distance on the value axis at the point's timestamp) of
 * point {@code i} and of every point dropped since the anchor; otherwise point {@code i} is kept
 * and becomes the anchor. The last point is always kept. Hence every dropped point lies within
 * the tolerance of the polyline through the kept points, and the error never accumulates along a
 * slow curve. The check is O(1) per point: the slopes from the anchor that satisfy all dropped
 * points form an interval that only shrinks.
 *
 * <p>Points with NaN values, and points sharing the anchor's timestamp, are always kept.
 */
public record Vectorization(double tolerance, List<String> arguments) implements Transformation {

  public Vectorization {
    if (!(tolerance >= 0)) {
      throw new IllegalArgumentException("tolerance must not be negative, got " + tolerance);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "vector";
  }

  @Override
  public Points apply(Points series) {
    int size = series.size();
    if (size <= 2) {
      return series.slice(0, size);
    }
    Points kept = new Points(size);
    int anchor = 0;
    kept.add(series.timestamp(0), series.value(0));
    double lowSlope = Double.NEGATIVE_INFINITY;
    double highSlope = Double.POSITIVE_INFINITY;
    for (int i = 1; i < size - 1; i++) {
      double anchorValue = series.value(anchor);
      double dtPoint = series.timestamp(i) - series.timestamp(anchor);
      double dtNext = series.timestamp(i + 1) - series.timestamp(anchor);
      double low = lowSlope;
      double high = highSlope;
      if (dtPoint > 0) {
        low = Math.max(low, (series.value(i) - tolerance - anchorValue) / dtPoint);
        high = Math.min(high, (series.value(i) + tolerance - anchorValue) / dtPoint);
      }
      double slope = (series.value(i + 1) - anchorValue) / dtNext;
      if (dtPoint > 0 && slope >= low && slope <= high) {
        lowSlope = low;
        highSlope = high;
      } else {
        kept.add(series.timestamp(i), series.value(i));
        anchor = i;
        lowSlope = Double.NEGATIVE_INFINITY;
        highSlope = Double.POSITIVE_INFINITY;
      }
    }
    kept.add(series.timestamp(size - 1), series.value(size - 1));
    return kept;
  }
}
