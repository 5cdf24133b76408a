package io.chronix.analysis.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class GeneralizedEsdTest {

  @Test
  void criticalValuesMatchTheNistHandbookExample() {
    // NIST/SEMATECH e-Handbook 1.3.5.17.3, Rosner's 54 values at alpha 0.05
    double[] expected = {3.158, 3.151, 3.143, 3.136, 3.128, 3.120, 3.111, 3.103, 3.094, 3.085};
    for (int i = 1; i <= expected.length; i++) {
      assertEquals(expected[i - 1], GeneralizedEsd.criticalValue(54, i, 0.05), 1.5e-3, "i=" + i);
    }
  }

  @Test
  void findsInjectedOutliersMostExtremeFirst() {
    Random random = new Random(5);
    double[] values = new double[200];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextDouble() * 2 - 1;
    }
    values[17] = 12;
    values[150] = -20;
    values[90] = 8;
    assertArrayEquals(new int[] {150, 17, 90}, GeneralizedEsd.anomalies(values, 20, 0.05));
  }

  @Test
  void constantValuesHaveNoAnomalies() {
    assertArrayEquals(new int[0], GeneralizedEsd.anomalies(new double[50], 5, 0.05));
  }
}
