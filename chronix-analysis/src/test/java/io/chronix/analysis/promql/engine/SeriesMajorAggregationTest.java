package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.model.Labels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * sum, count, min and max combined series by series, a block of steps at a time: with so many
 * groups that a block holds a few steps only, every group and step gets the aggregate of its own
 * series' values at that step (integers, whose sums are exact in any order), and NaN and the
 * infinities follow the step by step rules (PromQL's test scripts cover those too).
 */
class SeriesMajorAggregationTest {

  private static final long STEP = 60_000;

  @Test
  void everyGroupAndStepGetsItsOwnSeriesAggregate() {
    int groups = 3_000;
    int steps = 40;
    assertTrue(SeriesMajorAggregation.BLOCK_CELLS / groups < steps, "several blocks of steps");
    Random random = new Random(3);
    InMemorySource source = new InMemorySource();
    Map<String, double[]> values = new HashMap<>();
    for (int s = 0; s < groups * 2 + 7; s++) {
      int group = s % groups;
      long[] t = new long[steps];
      double[] v = new double[steps];
      int n = 0;
      for (int i = 0; i < steps; i++) {
        if (random.nextInt(5) > 0) { // absent at some steps
          t[n] = i * STEP;
          v[n++] = random.nextInt(2_000) - 1_000;
        }
      }
      source.add(Labels.of("__name__", "m", "s", "s" + s, "g", "g" + group), java.util.Arrays.copyOf(t, n),
          java.util.Arrays.copyOf(v, n));
      for (int k = 0; k < n; k++) {
        int step = (int) (t[k] / STEP);
        double[] cell = values.computeIfAbsent(group + "/" + step, x -> new double[] {0, 0, Double.NaN, Double.NaN});
        cell[0] += v[k];
        cell[1]++;
        cell[2] = Double.isNaN(cell[2]) ? v[k] : Math.max(cell[2], v[k]);
        cell[3] = Double.isNaN(cell[3]) ? v[k] : Math.min(cell[3], v[k]);
      }
    }
    Engine engine = new Engine(source, Runnable::run);
    String[] ops = {"sum", "count", "max", "min"};
    for (int o = 0; o < ops.length; o++) {
      // a lookback shorter than the step: each step sees its own sample only
      QueryResult result = engine.range(ops[o] + " by (g) (m)", 0, (steps - 1) * STEP, STEP,
          QueryLimits.DEFAULT.withLookback(java.time.Duration.ofSeconds(30)));
      int cells = 0;
      for (QueryResult.Series series : ((QueryResult.Matrix) result.data()).series()) {
        int group = Integer.parseInt(series.labels().get("g").substring(1));
        for (int k = 0; k < series.size(); k++) {
          int step = (int) (series.timestamps()[k] / STEP);
          assertEquals(values.get(group + "/" + step)[o], series.values()[k], ops[o] + " of g" + group + " at " + step);
          cells++;
        }
      }
      assertEquals(values.size(), cells, ops[o] + ": every group and step with a value");
    }
  }

  @Test
  void nanAndInfinitiesAsStepByStep() {
    InMemorySource source = new InMemorySource();
    double[][] rows = {{1, Double.NaN, 3}, {Double.POSITIVE_INFINITY, 2, 1e308}, {Double.NEGATIVE_INFINITY, 5, 1e308},
        {1e308, Double.NaN, 1e308}};
    for (int s = 0; s < rows.length; s++) {
      source.add(Labels.of("__name__", "x", "s", "s" + s), new long[] {0, STEP, 2 * STEP}, rows[s]);
    }
    Engine engine = new Engine(source, Runnable::run);
    QueryLimits limits = QueryLimits.DEFAULT.withLookback(java.time.Duration.ofSeconds(30));
    assertEquals(List.of(Double.NaN, Double.NaN, Double.POSITIVE_INFINITY), values(engine.range("sum(x)", 0, 2 * STEP, STEP, limits)));
    assertEquals(List.of(Double.POSITIVE_INFINITY, 5.0, 1e308), values(engine.range("max(x)", 0, 2 * STEP, STEP, limits)));
    assertEquals(List.of(Double.NEGATIVE_INFINITY, 2.0, 3.0), values(engine.range("min(x)", 0, 2 * STEP, STEP, limits)));
    assertEquals(List.of(4.0, 4.0, 4.0), values(engine.range("count(x)", 0, 2 * STEP, STEP, limits)));
  }

  private static List<Double> values(QueryResult result) {
    QueryResult.Series series = ((QueryResult.Matrix) result.data()).series().get(0);
    List<Double> values = new java.util.ArrayList<>();
    for (int k = 0; k < series.size(); k++) {
      values.add(series.values()[k]);
    }
    return values;
  }
}
