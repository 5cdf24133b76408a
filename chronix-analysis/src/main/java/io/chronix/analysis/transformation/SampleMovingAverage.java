package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.List;

/**
 * smovavg: the average of the last n samples, stamped at the last of them. The first n-1 points
 * have no full window and are not emitted, so a series shorter than n yields an empty series.
 * NaN values are left out of the averages.
 */
public record SampleMovingAverage(int samples, List<String> arguments) implements Transformation {

  public SampleMovingAverage {
    if (samples < 1) {
      throw new IllegalArgumentException("samples must be at least 1, got " + samples);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "smovavg";
  }

  @Override
  public Points apply(Points series) {
    int size = series.size();
    Points averaged = new Points(Math.max(0, size - samples + 1));
    WindowSum window = new WindowSum();
    for (int i = 0; i < size; i++) {
      window.add(series.value(i));
      if (i >= samples) {
        window.remove(series.value(i - samples));
      }
      if (i >= samples - 1) {
        averaged.add(series.timestamp(i), window.average());
      }
    }
    return averaged;
  }
}
