package io.chronix.analysis.analysis;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.analysis.AnalysisTestSupport.analyse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.AnalysisResult;
import io.chronix.core.series.Points;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.junit.jupiter.api.Test;

class TrendTest {

  @Test
  void risingSeriesMatchesWithTheSlopePerSecond() {
    // y = 3 + 0.5 x, exactly
    AnalysisResult result = analyse("trend", perSecond(3, 3.5, 4, 4.5, 5));
    assertTrue(result.matches());
    assertEquals(0.5, (Double) result.details().get("slope"), 1e-12);
    assertEquals(3, (Double) result.details().get("intercept"), 1e-12);
    assertEquals(1, (Double) result.details().get("r2"), 1e-12);
    assertEquals(5L, result.details().get("points"));
  }

  @Test
  void theInterceptIsTheFittedValueAtTheOriginTheFirstTimestamp() {
    Points series = new Points();
    long first = 1_700_000_000_123L * 1_000_000L; // ns
    series.add(first, 10);
    series.add(first + 2 * SECOND, 11);
    series.add(first + 4 * SECOND, 12);
    AnalysisResult result = analyse("trend", series);
    assertEquals(1_700_000_000_123L, result.details().get("origin"));
    assertEquals(10, (Double) result.details().get("intercept"), 1e-9);
    assertEquals(0.5, (Double) result.details().get("slope"), 1e-12);
  }

  @Test
  void fallingOrFlatSeriesDoesNotMatch() {
    assertFalse(analyse("trend", perSecond(5, 4, 4.5, 2)).matches());
    assertFalse(analyse("trend", perSecond(1, 1, 1)).matches());
    assertFalse(analyse("trend", perSecond(1)).matches());
    assertFalse(analyse("trend", new Points()).matches());
  }

  @Test
  void slopeAgreesWithCommonsMathOnEpochTimestamps() {
    long start = 1_700_000_000L * SECOND;
    double[] values = {10, 12, 9, 14, 15, 13, 18, 17};
    Points series = new Points();
    SimpleRegression regression = new SimpleRegression();
    for (int i = 0; i < values.length; i++) {
      series.add(start + i * 60 * SECOND, values[i]);
      regression.addData(i * 60, values[i]);
    }
    AnalysisResult result = analyse("trend", series);
    assertEquals(regression.getSlope(), (Double) result.details().get("slope"), 1e-12);
    assertTrue(result.matches());
  }

  /** Slope, intercept, r² and count as Commons Math's SimpleRegression gives them, NaN values left out. */
  @Test
  void agreesWithCommonsMathsRegressionOnIrregularSeriesWithGaps() {
    java.util.Random random = new java.util.Random(11);
    for (int round = 0; round < 500; round++) {
      int size = random.nextInt(round < 50 ? 4 : 3_000);
      long start = 1_439_400_000_000L * 1_000_000L + random.nextInt(1_000_000);
      Points series = new Points();
      SimpleRegression regression = new SimpleRegression();
      long t = start;
      double level = random.nextGaussian() * 1e6;
      double drift = random.nextGaussian();
      for (int i = 0; i < size; i++) {
        t += 1 + (long) (random.nextDouble() * 30 * SECOND);
        double value = random.nextInt(20) == 0 ? Double.NaN
            : round % 3 == 0 ? 42 : level + drift * (t - start) / 1e9 + random.nextGaussian() * 100;
        series.add(t, value);
        if (!Double.isNaN(value)) {
          regression.addData((t - series.timestamp(0)) / 1e9, value);
        }
      }
      AnalysisResult result = analyse("trend", series);
      String where = "round " + round + ", " + size + " points";
      assertEquals(regression.getN(), result.details().get("points"), where);
      assertClose(regression.getSlope(), (Double) result.details().get("slope"), where + ", slope");
      assertClose(regression.getIntercept(), (Double) result.details().get("intercept"), where + ", intercept");
      assertClose(regression.getRSquare(), (Double) result.details().get("r2"), where + ", r2");
      assertEquals(regression.getSlope() > 0, result.matches(), where);
    }
  }

  private static void assertClose(double expected, double actual, String what) {
    if (Double.isNaN(expected)) {
      assertTrue(Double.isNaN(actual), what + ": expected NaN, was " + actual);
    } else {
      assertEquals(expected, actual, 1e-9 * Math.max(1, Math.abs(expected)), what);
    }
  }
}
