package io.chronix.analysis;

import static io.chronix.analysis.TestSeries.perSecond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionEvaluatorTest {

  private static List<ChronixFunction> functions(String block) {
    return FunctionQuery.parse("metric{" + block + "}").functionsFor("metric");
  }

  @Test
  void transformationsRunFirstInTheOrderGiven() {
    Points series = perSecond(1, 2, 3);
    Points before = TestSeries.copy(series);
    EvaluatedSeries result =
        FunctionEvaluator.evaluate(series, functions("max;add:1;scale:10;min"), null);
    // (v + 1) * 10, not v * 10 + 1, and both aggregations see the transformed series
    assertEquals(perSecond(20, 30, 40), result.points());
    assertEquals(2, result.values().size());
    assertEquals(new FunctionValue("max", List.of(), 40.0, null, null, Map.of()), result.values().get(0));
    assertEquals(new FunctionValue("min", List.of(), 20.0, null, null, Map.of()), result.values().get(1));
    assertEquals(before, series);

    EvaluatedSeries swapped = FunctionEvaluator.evaluate(series, functions("scale:10;add:1"), null);
    assertEquals(perSecond(11, 21, 31), swapped.points());
    assertTrue(swapped.values().isEmpty());
  }

  @Test
  void aggregationsAndAnalysesKeepTheirOrder() {
    EvaluatedSeries result = FunctionEvaluator.evaluate(
        perSecond(1, 2, 3, 4), functions("trend;p:0.5;count"), References.none());
    assertEquals(List.of("trend", "p", "count"),
        result.values().stream().map(FunctionValue::name).toList());
    FunctionValue trend = result.values().get(0);
    assertNull(trend.value());
    assertEquals(Boolean.TRUE, trend.matches());
    assertEquals(1.0, (Double) trend.details().get("slope"), 1e-12);
    FunctionValue median = result.values().get(1);
    assertEquals(2.5, median.value());
    assertNull(median.matches());
    assertEquals(List.of("0.5"), median.arguments());
    assertTrue(median.details().isEmpty());
  }

  @Test
  void withoutFunctionsTheSeriesIsReturnedAsIs() {
    Points series = perSecond(1, 2);
    assertSame(series, FunctionEvaluator.evaluate(series, List.of(), null).points());
  }

  @Test
  void analysesResolveTheirReferences() {
    Points series = perSecond(1, 2, 3);
    EvaluatedSeries result = FunctionEvaluator.evaluate(series,
        functions("fastdtw:name:ref,1,0.5"), query -> perSecond(1, 2, 3));
    assertEquals(Boolean.TRUE, result.values().get(0).matches());
    assertThrows(FunctionQueryException.class,
        () -> FunctionEvaluator.evaluate(series, functions("fastdtw:name:ref,1,0.5"), null));
  }

  @Test
  void analysisDetailsAreRestrictedToSimpleTypes() {
    assertThrows(IllegalArgumentException.class,
        () -> new AnalysisResult(true, Map.of("count", 3)));
  }
}
