package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CounterFallsTest {

  /** Windows moving forward, overlapping, jumping back: each answer as a look at every sample of the window. */
  @Test
  void answersAsASearchOfTheWindow() {
    Random random = new Random(5);
    for (int round = 0; round < 2_000; round++) {
      int size = 1 + random.nextInt(200);
      double[] values = new double[size + random.nextInt(3)]; // arrays may be longer than the series
      double value = 0;
      for (int i = 0; i < values.length; i++) {
        int kind = random.nextInt(round % 2 == 0 ? 40 : 5);
        value = kind == 0 ? random.nextInt(3) : kind == 1 ? Double.NaN : (Double.isNaN(value) ? 0 : value) + random.nextInt(3);
        values[i] = value;
      }
      CounterFalls falls = CounterFalls.of(values, size);
      int from = 0;
      for (int ask = 0; ask < 60; ask++) {
        from = random.nextInt(8) == 0 ? random.nextInt(size) : Math.min(size - 1, from + random.nextInt(4));
        int to = from + 1 + random.nextInt(size - from);
        assertEquals(fallsBySearch(values, from, to), falls.inside(from, to),
            "round " + round + ", [" + from + ", " + to + ")");
      }
    }
  }

  private static boolean fallsBySearch(double[] values, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      if (values[i] < values[i - 1]) {
        return true;
      }
    }
    return false;
  }
}
