package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.List;

/**
 * movavg: the average over a time window ending at each point, (t - window, t]. A time window
 * rather than a sample count keeps the smoothing meaningful when the sampling rate varies. One
 * point is emitted per input point so that the result overlays the original series; NaN values
 * are left out of the averages (a window of only NaN averages to NaN).
 */
public record MovingAverage(long windowNanos, List<String> arguments) implements Transformation {

  public MovingAverage {
    if (windowNanos <= 0) {
      throw new IllegalArgumentException("window must be positive, got " + windowNanos);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "movavg";
  }

  @Override
  public Points apply(Points series) {
    int size = series.size();
    Points averaged = new Points(size);
    WindowSum window = new WindowSum();
    int start = 0;
    int end = 0;
    for (int i = 0; i < size; i++) {
      long t = series.timestamp(i);
      // the window is closed at t, so it includes later points with the same timestamp
      while (end < size && series.timestamp(end) <= t) {
        window.add(series.value(end++));
      }
      while (t - series.timestamp(start) >= windowNanos) {
        window.remove(series.value(start++));
      }
      averaged.add(t, window.average());
    }
    return averaged;
  }
}
