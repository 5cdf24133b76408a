package io.chronix.analysis;

import io.chronix.core.series.Points;

/** Builds small series for tests: one point per second unless timestamps are given. */
public final class TestSeries {

  public static final long SECOND = 1_000_000_000L;

  private TestSeries() {}

  /** Values at 0 s, 1 s, 2 s, ... */
  public static Points perSecond(double... values) {
    Points points = new Points(values.length);
    for (int i = 0; i < values.length; i++) {
      points.add(i * SECOND, values[i]);
    }
    return points;
  }

  /** Points from alternating (seconds, value) pairs. */
  public static Points atSeconds(double... secondsAndValues) {
    Points points = new Points(secondsAndValues.length / 2);
    for (int i = 0; i < secondsAndValues.length; i += 2) {
      points.add(Math.round(secondsAndValues[i] * SECOND), secondsAndValues[i + 1]);
    }
    return points;
  }

  public static double[] values(Points points) {
    double[] values = new double[points.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = points.value(i);
    }
    return values;
  }

  public static long[] timestamps(Points points) {
    long[] timestamps = new long[points.size()];
    for (int i = 0; i < timestamps.length; i++) {
      timestamps[i] = points.timestamp(i);
    }
    return timestamps;
  }

  /** A copy, to check afterwards that a function left its input alone. */
  public static Points copy(Points points) {
    return points.slice(0, points.size());
  }
}
