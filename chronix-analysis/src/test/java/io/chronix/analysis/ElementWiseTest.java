package io.chronix.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ElementWiseTest {

  private static final long SECOND = 1_000_000_000L;

  private static List<ChronixFunction> functions(String block) {
    return FunctionQuery.parse("array{" + block + "}").functionsFor("array");
  }

  /** Per-CPU loads of a machine whose third CPU came online at the second point. */
  private static Points cpus() {
    Points points = new Points(ValueType.ARRAY, 4);
    points.addArray(0, new double[] {0.5, 0.25});
    points.addArray(SECOND, new double[] {0.75, Double.NaN, 0.5});
    points.addArray(2 * SECOND, new double[] {0.25, 1.0, 0.75});
    points.addArray(3 * SECOND, new double[] {1.0, 0.5, 0.25});
    return points;
  }

  private static List<Double> values(EvaluatedSeries result, int index) {
    return result.values().get(index).elements();
  }

  @Test
  void aggregationsGiveOneValueAnElement() {
    EvaluatedSeries result = FunctionEvaluator.evaluate(cpus(), functions("max;min;avg;count;first;last;p:0.5"), null);
    assertEquals(List.of(1.0, 1.0, 0.75), values(result, 0));
    assertEquals(List.of(0.25, 0.25, 0.25), values(result, 1));
    assertEquals(List.of(0.625, 0.5833333333333334, 0.5), values(result, 2), "NaN is a gap, as for doubles");
    assertEquals(List.of(4.0, 4.0, 3.0), values(result, 3), "points that have the element (NaN is one)");
    assertEquals(0.5, values(result, 4).get(0));
    assertEquals(List.of(0.5, 0.25, 0.5), values(result, 4), "first of each element where it first appears");
    assertEquals(List.of(1.0, 0.5, 0.25), values(result, 5));
    assertEquals("max", result.values().get(0).name());
    assertEquals(null, result.values().get(0).value(), "no single value");
    assertSame(result.points().type(), ValueType.ARRAY);
  }

  @Test
  void eachElementIsItsOwnDoubleSeries() {
    Points cpus = cpus();
    List<Points> elements = ElementWise.elements(cpus);
    assertEquals(3, elements.size());
    for (String block : List.of("max", "sum", "dev", "range", "sdiff", "integral", "p:0.9")) {
      List<Double> elementWise = values(FunctionEvaluator.evaluate(cpus, functions(block), null), 0);
      for (int k = 0; k < elements.size(); k++) {
        double alone = FunctionEvaluator.evaluate(elements.get(k), functions(block), null).values().get(0).value();
        assertEquals(alone, elementWise.get(k), block + " of element " + k);
      }
    }
  }

  @Test
  void transformationsJoinBackIntoArrays() {
    EvaluatedSeries scaled = FunctionEvaluator.evaluate(cpus(), functions("scale:100;max"), null);
    assertArrayEquals(new double[] {50, 25}, scaled.points().array(0));
    assertArrayEquals(new double[] {75, Double.NaN, 50}, scaled.points().array(1));
    assertEquals(List.of(100.0, 100.0, 75.0), values(scaled, 0), "aggregations see the transformed elements");

    EvaluatedSeries downsampled = FunctionEvaluator.evaluate(cpus(), functions("downsample:2,s,max"), null);
    assertEquals(2, downsampled.points().size());
    assertArrayEquals(new double[] {0.75, 0.25, 0.5}, downsampled.points().array(0));
    assertArrayEquals(new double[] {1.0, 1.0, 0.75}, downsampled.points().array(1));

    // a position missing at a timestamp below one present there is NaN; arrays end at the last present one
    EvaluatedSeries derivative = FunctionEvaluator.evaluate(cpus(), functions("derivative"), null);
    for (int i = 0; i < derivative.points().size(); i++) {
      assertTrue(derivative.points().array(i).length >= 1, Arrays.toString(derivative.points().array(i)));
    }
  }

  @Test
  void analysesAreRefusedWithTheReason() {
    FunctionQueryException error = assertThrows(FunctionQueryException.class,
        () -> FunctionEvaluator.evaluate(cpus(), functions("max;outlier"), null));
    assertTrue(error.getMessage().contains("'outlier' does not apply to array series"), error.getMessage());
  }

  @Test
  void emptyArraysAndNoPoints() {
    Points empty = new Points(ValueType.ARRAY, 1);
    empty.addArray(0, new double[0]);
    EvaluatedSeries result = FunctionEvaluator.evaluate(empty, functions("max;scale:2"), null);
    assertEquals(List.of(), values(result, 0));
    EvaluatedSeries none = FunctionEvaluator.evaluate(new Points(ValueType.ARRAY, 1), functions("count"), null);
    assertEquals(List.of(), values(none, 0));
  }
}
