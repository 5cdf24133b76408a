package io.chronix.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordStatsTest {

  /** Min and max as Math's, bit for bit: -0.0 below 0.0, NaN left out, longs converted. */
  @Test
  void statisticsAreThoseOfMathsMinMaxAndASumInOrder() {
    Random random = new Random(11);
    for (int round = 0; round < 2000; round++) {
      Points points = randomPoints(random, 12);
      assertEquals(reference(points), RecordStats.of(points), points.toString());
    }
    Points longs = new Points(ValueType.LONG, 3);
    longs.addLong(1, 5);
    longs.addLong(2, -3);
    longs.addLong(3, 9);
    assertEquals(new RecordStats(3, -3, 9, 11, 5, 9), RecordStats.of(longs));
    Points texts = new Points(ValueType.STRING, 1);
    texts.addText(1, "up");
    assertEquals(new RecordStats(1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN), RecordStats.of(texts));
  }

  /** Values given in pieces (a range's blocks) give what all of them at once give, zeros' signs included. */
  @Test
  void statisticsOverPiecesAreThoseOverTheWhole() {
    Random random = new Random(13);
    for (int round = 0; round < 3000; round++) {
      Points points = randomPoints(random, 16);
      int n = points.size();
      double[] values = points.valueArray();
      RecordStats.Running running = new RecordStats.Running();
      for (int from = 0; from < n; ) {
        int to = from + 1 + random.nextInt(n - from);
        running.add(values, from, to);
        from = to;
      }
      assertEquals(reference(points), running.stats(), points.toString());
    }
  }

  /** Up to {@code most} points: zeros of both signs, NaN, infinities and a few other values, some random. */
  private static Points randomPoints(Random random, int most) {
    double[] pool = {0.0, -0.0, Double.NaN, 1.5, -1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 7, -7};
    int n = 1 + random.nextInt(most);
    Points points = new Points(n);
    for (int i = 0; i < n; i++) {
      points.add(i, random.nextInt(3) == 0 ? random.nextGaussian() : pool[random.nextInt(pool.length)]);
    }
    return points;
  }

  private static RecordStats reference(Points points) {
    double min = Double.NaN;
    double max = Double.NaN;
    double sum = 0;
    boolean any = false;
    for (int i = 0; i < points.size(); i++) {
      double value = points.value(i);
      if (Double.isNaN(value)) {
        continue;
      }
      min = any ? Math.min(min, value) : value;
      max = any ? Math.max(max, value) : value;
      any = true;
      sum += value;
    }
    return new RecordStats(points.size(), min, max, any ? sum : Double.NaN, points.value(0),
        points.value(points.size() - 1));
  }
}
