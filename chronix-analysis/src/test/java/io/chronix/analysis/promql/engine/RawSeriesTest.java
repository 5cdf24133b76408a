package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RawSeriesTest {

  @Test
  void pointsWithinOneMillisecondCollapseToTheLast() {
    Points points = new Points();
    points.add(5_000_000L, 1);
    points.add(5_400_000L, 2);
    points.add(5_999_999L, 3);
    points.add(6_000_000L, 4);
    points.add(9_000_001L, 5);
    RawSeries series = RawSeries.fromNanos(Labels.of("__name__", "x"), points);
    assertEquals(3, series.size());
    assertArrayEquals(new long[] {5, 6, 9}, Arrays.copyOf(series.timestampArray(), series.size()));
    assertArrayEquals(new double[] {3, 4, 5}, Arrays.copyOf(series.valueArray(), series.size()));
  }

  @Test
  void longPointsAsDoubles() {
    Points points = new Points(ValueType.LONG, 2);
    points.addLong(1_000_000L, 7L);
    points.addLong(2_000_000L, -3L);
    RawSeries series = RawSeries.fromNanos(Labels.EMPTY, points);
    assertEquals(7.0, series.value(0));
    assertEquals(-3.0, series.value(1));
    assertEquals(2, series.timestamp(1));
  }
}
