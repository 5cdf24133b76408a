package io.chronix.analysis.analysis;

import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.analysis.AnalysisTestSupport.analyse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.AnalysisResult;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.junit.jupiter.api.Test;

class OutlierTest {

  @Test
  void valueBeyondTheUpperFenceIsAnOutlier() {
    double[] values = {1, 2, 3, 4, 5, 6, 7, 100};
    AnalysisResult result = analyse("outlier", perSecond(values));
    double q1 = new Percentile().evaluate(values, 25);
    double q3 = new Percentile().evaluate(values, 75);
    // Commons Math default estimation: position p(n+1) = 2.25 and 6.75
    assertEquals(2.25, q1, 1e-12);
    assertEquals(6.75, q3, 1e-12);
    assertTrue(result.matches());
    assertEquals(q1, result.details().get("q1"));
    assertEquals(q3, result.details().get("q3"));
    assertEquals(4.5, result.details().get("iqr"));
    assertEquals(6.75 + 6.75, result.details().get("upper"));
    assertEquals(2.25 - 6.75, result.details().get("lower"));
    assertEquals(1L, result.details().get("outliers"));
  }

  @Test
  void lowOutliersCountToo() {
    // sorted: -50, 10..20, 200; quartiles at positions 3.5 and 10.5: 11.5 and 18.5, fences 1 and 29
    AnalysisResult result =
        analyse("outlier", perSecond(10, 11, 12, -50, 13, 14, 15, 16, 17, 200, 18, 19, 20));
    assertTrue(result.matches());
    assertEquals(1.0, result.details().get("lower"));
    assertEquals(29.0, result.details().get("upper"));
    assertEquals(2L, result.details().get("outliers"));
  }

  @Test
  void evenSpreadHasNoOutliers() {
    AnalysisResult result = analyse("outlier", perSecond(1, 2, 3, 4, 5, 6, 7, 8));
    assertFalse(result.matches());
    assertEquals(0L, result.details().get("outliers"));
  }
}
