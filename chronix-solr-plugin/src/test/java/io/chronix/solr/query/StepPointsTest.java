package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StepPointsTest {

  private static final long MS = 1_000_000L;

  @Test
  void everyStepFindsTheSameLatestPointAmongTheKeptOnes() {
    Random random = new Random(5);
    for (int round = 0; round < 200; round++) {
      Points points = new Points();
      long t = random.nextInt(5_000) * MS;
      int n = 50 + random.nextInt(2_000);
      for (int i = 0; i < n; i++) {
        // several points in one millisecond now and then: the engine keeps the last of them
        t += random.nextInt(4) == 0 ? random.nextInt(1_000) : random.nextInt(3_000) * MS;
        points.add(t, random.nextInt(4) == 0 ? Double.NaN : random.nextDouble());
      }
      long first = random.nextInt(20_000) - 5_000;
      long step = 1 + random.nextInt(60_000);
      long last = t / MS + random.nextInt(20_000) - 10_000;
      Points kept = StepPoints.of(points, new StepPoints.Steps(first, step), last);
      assertTrue(kept.size() <= points.size());
      for (long time = first; time <= last; time += step) {
        int all = latest(points, time);
        int some = latest(kept, time);
        assertEquals(all < 0, some < 0, "step " + time + " of round " + round);
        if (all >= 0) {
          assertEquals(points.timestamp(all), kept.timestamp(some), "step " + time + " of round " + round);
          assertEquals(Double.doubleToRawLongBits(points.value(all)), Double.doubleToRawLongBits(kept.value(some)));
        }
      }
    }
  }

  @Test
  void pointsNoMoreThanTheStepsStayAsTheyAre() {
    Points few = new Points();
    few.add(10 * MS, 1);
    few.add(20 * MS, 2);
    assertSame(few, StepPoints.of(few, new StepPoints.Steps(0, 1), 100));
    Points many = new Points();
    for (int i = 0; i < 100; i++) {
      many.add(i * MS, i);
    }
    assertSame(many, StepPoints.of(many, new StepPoints.Steps(Long.MIN_VALUE + 1, 1), Long.MAX_VALUE),
        "an unbounded range: as many steps as there are milliseconds");
    assertEquals(3, StepPoints.of(many, new StepPoints.Steps(9, 40), 99).size(), "the points at 9, 49 and 89 ms");
  }

  @Test
  void theParameterNamesWhatIsWrong() {
    assertEquals(new StepPoints.Steps(1000, 15), StepPoints.Steps.parse("1000, 15"));
    for (String bad : new String[] {"1000", "1000,0", "1000,-5", "a,b", "1,2,3"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StepPoints.Steps.parse(bad));
      assertTrue(e.getMessage().contains(bad.contains(",0") || bad.contains("-5") ? "positive" : bad), e.getMessage());
    }
  }

  /** The engine's rule: the last point before the millisecond after the step time, or -1. */
  private static int latest(Points points, long stepMillis) {
    return Points.lowerBound(points.timestampArray(), points.size(), (stepMillis + 1) * MS) - 1;
  }
}
