package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.model.Labels;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * rate, increase and delta over all of a series' windows in one loop must give, bit for bit, what
 * each window gives on its own, its bounds searched afresh: over counters with resets and NaNs,
 * windows that move forward, jump further than their range, stand still ({@code @}) or move back.
 */
class ExtrapolatedRateTest {

  @Test
  void oneLoopAnswersAsEachWindowAlone() {
    Random random = new Random(11);
    int compared = 0;
    for (int round = 0; round < 400; round++) {
      RawSeries series = series(random);
      long range = (1 + random.nextInt(10)) * 60_000L + random.nextInt(3) * 7_000L;
      long[] ends = ends(random, range);
      for (ExtrapolatedRate function : new ExtrapolatedRate[] {ExtrapolatedRate.RATE, ExtrapolatedRate.INCREASE,
          ExtrapolatedRate.DELTA}) {
        StepSeries loop = new StepSeries(Labels.EMPTY, ends.length);
        Window w = new Window();
        w.rangeMillis = range;
        w.over(series);
        function.windows(w, ends, loop);
        for (int step = 0; step < ends.length; step++) {
          Window alone = new Window();
          alone.rangeMillis = range;
          alone.over(series);
          alone.rangeStart = ends[step] - range;
          alone.rangeEnd = ends[step];
          alone.from = series.upperBound(alone.rangeStart);
          alone.to = series.upperBound(alone.rangeEnd);
          double expected = alone.to > alone.from ? function.apply(alone) : Window.NO_VALUE;
          boolean present = !Window.isNoValue(expected);
          assertEquals(present, loop.has(step), "round " + round + " step " + step);
          if (present) {
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(loop.get(step)),
                "round " + round + " step " + step + ": " + expected + " against " + loop.get(step));
            compared++;
          }
        }
      }
    }
    assertTrue(compared > 30_000, "windows compared: " + compared);
  }

  private static RawSeries series(Random random) {
    int n = random.nextInt(400);
    long[] t = new long[n];
    double[] v = new double[n];
    long time = random.nextInt(600_000);
    double counter = random.nextInt(1_000);
    for (int i = 0; i < n; i++) {
      time += random.nextInt(10) == 0 ? random.nextInt(900_000) : 1 + random.nextInt(30_000);
      t[i] = time;
      counter += random.nextInt(50) - (random.nextInt(8) == 0 ? 20 : 0);
      v[i] = random.nextInt(60) == 0 ? 0 : random.nextInt(200) == 0 ? Double.NaN : counter;
    }
    return new RawSeries(Labels.EMPTY, t, v, n);
  }

  /** Steps of a range query, mixed with an {@code @}'s fixed time and with jumps back and ahead. */
  private static long[] ends(Random random, long range) {
    long[] ends = new long[50 + random.nextInt(300)];
    long step = 5_000L + random.nextInt(120_000);
    long end = random.nextInt(1_200_000);
    int kind = random.nextInt(4);
    for (int i = 0; i < ends.length; i++) {
      ends[i] = end;
      end += switch (kind) {
        case 0 -> step;
        case 1 -> 0; // @ start()
        case 2 -> random.nextInt(5) == 0 ? -random.nextInt(2_000_000) : step;
        default -> random.nextInt(5) == 0 ? range + 1 + random.nextInt(600_000) : step;
      };
    }
    return ends;
  }
}
