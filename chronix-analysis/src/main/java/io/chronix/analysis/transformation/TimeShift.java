package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.Arrays;
import java.util.List;

/** timeshift: moves a series in time, e.g. to overlay last week's series on this week's. */
public record TimeShift(long offsetNanos, List<String> arguments) implements Transformation {

  public TimeShift {
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "timeshift";
  }

  @Override
  public Points apply(Points series) {
    int size = series.size();
    long[] timestamps = new long[size];
    for (int i = 0; i < size; i++) {
      timestamps[i] = Math.addExact(series.timestamp(i), offsetNanos);
    }
    return Points.wrap(timestamps, Arrays.copyOf(series.valueArray(), size), size);
  }
}
