package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.analysis.promql.model.Labels;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RawSeriesTest {

  /**
   * The instant selector's search from the last step's answer: for step times that do not
   * decrease (steps of any size, an @ time repeated), the same index as a search over all samples,
   * up to the largest time.
   */
  @Test
  void searchingOnFromTheLastStepFindsWhatASearchOverAllFinds() {
    Random random = new Random(13);
    for (int round = 0; round < 1_000; round++) {
      int size = random.nextInt(400);
      long[] timestamps = new long[size + random.nextInt(3)]; // room after the samples is not searched
      long t = random.nextInt(1_000) - 500;
      for (int i = 0; i < size; i++) {
        t += 1 + random.nextInt(random.nextBoolean() ? 5 : 20_000);
        timestamps[i] = t;
      }
      RawSeries series = new RawSeries(Labels.EMPTY, timestamps, new double[timestamps.length], size);
      long step = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(60_000);
      long time = random.nextInt(2_000) - 1_000;
      int after = 0;
      for (int i = 0; i < 300; i++, time += step) {
        after = series.upperBoundOnwards(after, time);
        assertEquals(series.upperBound(time), after, "round " + round + ", step " + i + " at " + time);
      }
      assertEquals(size, series.upperBoundOnwards(after, Long.MAX_VALUE), "round " + round + " at the largest time");
    }
  }
}
