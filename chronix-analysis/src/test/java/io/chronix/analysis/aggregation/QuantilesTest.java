package io.chronix.analysis.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.junit.jupiter.api.Test;

class QuantilesTest {

  /** Commons Math's default percentile, bit for bit, whatever the order and the ties. */
  @Test
  void sameAsCommonsMathsDefault() {
    Random random = new Random(42);
    double[] ps = {0.001, 1, 10, 24.9, 25, 50, 75, 90, 99, 99.999, 100};
    for (int round = 0; round < 2_000; round++) {
      int n = 1 + random.nextInt(round < 1_000 ? 20 : 3_000);
      double[] values = new double[n];
      int shape = random.nextInt(4);
      for (int i = 0; i < n; i++) {
        values[i] = switch (shape) {
          case 0 -> random.nextGaussian() * 100;
          case 1 -> random.nextInt(5); // many ties
          case 2 -> i < n * 0.9 ? i * 1.5 : -1; // a rising counter, then "not available"
          default -> n - i;
        };
      }
      for (double p : ps) {
        double expected = new Percentile().evaluate(values.clone(), p);
        assertEquals(expected, new Quantiles(values.clone()).percentile(p), "n " + n + ", shape " + shape + ", p " + p);
      }
    }
  }

  @Test
  void oneSampleAnswersItselfAtEveryPercentile() {
    Quantiles one = new Quantiles(new double[] {7});
    assertEquals(7, one.percentile(1));
    assertEquals(7, one.percentile(100));
  }
}
