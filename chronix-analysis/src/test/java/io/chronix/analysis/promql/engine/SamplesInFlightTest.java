package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.budget.PointBudget;
import org.junit.jupiter.api.Test;

/**
 * The samples of all queries in flight within the engine's budget: a query that fits answers and
 * gives its samples back, one the budget cannot take while another holds samples is refused as
 * unavailable, and every query gives back what it held, answered or failed.
 */
class SamplesInFlightTest {

  @Test
  void queriesTakeSamplesFromTheBudgetAndGiveThemBack() {
    InMemorySource source = new InMemorySource();
    for (int s = 0; s < 3; s++) {
      long[] t = new long[60];
      double[] v = new double[60];
      for (int i = 0; i < 60; i++) {
        t[i] = i * 60_000L;
        v[i] = s * 100 + i;
      }
      source.add(Labels.of("__name__", "cpu", "host", "h" + s), t, v);
    }
    PointBudget budget = new PointBudget(1_000);
    Engine engine = new Engine(source, Runnable::run, budget);
    QueryResult answer = engine.range("cpu", 0, 3_540_000, 60_000, QueryLimits.DEFAULT);
    assertEquals(3, ((QueryResult.Matrix) answer.data()).series().size());
    assertEquals(0, budget.taken(), "samples held after the answer");

    PointBudget.Lease other = budget.lease();
    assertTrue(other.take(800, 0));
    PromQlException refused = assertThrows(PromQlException.class,
        () -> engine.range("cpu", 0, 3_540_000, 60_000, QueryLimits.DEFAULT));
    assertEquals(PromQlException.Type.UNAVAILABLE, refused.type());
    assertTrue(refused.getMessage().contains("more than 1000 at once (promql.maxSamples)"), refused.getMessage());
    assertEquals(800, budget.taken(), "a refused query's samples held");
    other.close();
    engine.instant("cpu", 3_540_000, QueryLimits.DEFAULT);
    assertEquals(0, budget.taken());
  }
}
