package io.chronix.analysis.analysis;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.analysis.AnalysisTestSupport.analyse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SeasonalEsdTest {

  private static final int PERIOD = 24;

  /** Ten days of hourly values with a daily cycle from 40 to 160 and a little bounded noise. */
  private static double[] seasonalSeries() {
    Random random = new Random(42);
    double[] values = new double[10 * PERIOD];
    for (int i = 0; i < values.length; i++) {
      values[i] = 100 + 60 * Math.sin(2 * Math.PI * i / PERIOD) + (random.nextDouble() - 0.5) * 4;
    }
    return values;
  }

  @Test
  void cleanSeasonalSeriesHasNoAnomalies() {
    AnalysisResult result = analyse("seasonal:24", perSecond(seasonalSeries()));
    assertFalse(result.matches());
    assertEquals(0L, result.details().get("anomalies"));
  }

  @Test
  void injectedSpikeIsFoundEvenBelowTheDailyPeak() {
    double[] values = seasonalSeries();
    // at a trough (phase 18 of 24) a value of 90 is well inside the daily range
    int spike = 5 * PERIOD + 18;
    values[spike] += 50;
    assertTrue(values[spike] < 160);
    AnalysisResult result = analyse("seasonal:24,0.05,0.1", perSecond(values));
    assertTrue(result.matches());
    assertEquals(1L, result.details().get("anomalies"));
    assertEquals((long) spike, result.details().get("firstAnomalyIndex"));
    assertEquals(spike * SECOND, result.details().get("firstAnomalyTimestamp"));
  }

  @Test
  void severalSpikesReportTheEarliest() {
    double[] values = seasonalSeries();
    values[200] -= 30;
    values[30] += 30;
    values[100] += 40;
    AnalysisResult result = analyse("seasonal:24", perSecond(values));
    assertEquals(3L, result.details().get("anomalies"));
    assertEquals(30L, result.details().get("firstAnomalyIndex"));
  }

  @Test
  void seriesShorterThanTwoPeriodsDoesNotMatch() {
    AnalysisResult result = analyse("seasonal:24", perSecond(new double[47]));
    assertFalse(result.matches());
    assertTrue(((String) result.details().get("reason")).contains("2 periods"));
  }

  @Test
  void defaultsApplyWhenOnlyThePeriodIsGiven() {
    SeasonalEsd esd = (SeasonalEsd) Functions.parse("seasonal:24");
    assertEquals(0.05, esd.alpha());
    assertEquals(0.1, esd.maxAnomalyFraction());
    assertEquals(List.of("24"), esd.arguments());
    assertThrows(FunctionQueryException.class, () -> Functions.parse("seasonal:0"));
    assertThrows(FunctionQueryException.class, () -> Functions.parse("seasonal:24,1.5"));
    assertThrows(FunctionQueryException.class, () -> Functions.parse("seasonal:24,0.05,0.9"));
  }
}
