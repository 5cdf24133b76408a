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
}
