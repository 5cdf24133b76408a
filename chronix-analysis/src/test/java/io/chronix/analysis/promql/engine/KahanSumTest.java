package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class KahanSumTest {

  /** Sum and compensation kept apart by a caller give the bits the running sum gives (any NaN as NaN: Java leaves its sign open). */
  @Test
  void compensationAsTheRunningSumHasIt() {
    Random random = new Random(5);
    double[] specials = {0.0, -0.0, 1e308, -1e308, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN, 1e-300, 3.0};
    for (int round = 0; round < 2_000; round++) {
      KahanSum running = new KahanSum();
      double sum = 0;
      double compensation = 0;
      for (int i = 0; i < 50; i++) {
        double value = random.nextInt(10) == 0 ? specials[random.nextInt(specials.length)]
            : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
        running.add(value);
        compensation = KahanSum.compensation(value, sum, compensation);
        sum = sum + value;
        assertEquals(Double.doubleToLongBits(running.sum), Double.doubleToLongBits(sum));
        assertEquals(Double.doubleToLongBits(running.compensation), Double.doubleToLongBits(compensation));
      }
    }
  }
}
