package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.model.Labels;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A range function over many series computes their windows on several cores
 * ({@link FunctionCalls#PARALLEL_WINDOWS}): each series' answer must be the one it gets alone, and
 * the answer's series order and annotations those of one core.
 */
class ParallelWindowsTest {

  private static final int SERIES = 200;
  private static final long HOUR = 3_600_000L;

  @Test
  void manySeriesAnswerAsEachAlone() {
    InMemorySource source = new InMemorySource();
    Random random = new Random(3);
    for (int s = 0; s < SERIES; s++) {
      int n = 6 * 60;
      long[] t = new long[n];
      double[] v = new double[n];
      double counter = 0;
      for (int i = 0; i < n; i++) {
        t[i] = i * 60_000L + random.nextInt(5_000);
        counter += random.nextInt(100);
        v[i] = s % 17 == 0 && i == n / 2 ? 0 : counter; // some counters reset
      }
      source.add(Labels.of("__name__", "requests", "host", "h" + s), t, v);
    }
    Engine engine = new Engine(source, Runnable::run);
    for (String function : new String[] {"rate", "avg_over_time", "stddev_over_time", "max_over_time"}) {
      String query = function + "(requests[5m])";
      long steps = 6 * 60 + 1;
      assertTrue(SERIES * steps >= FunctionCalls.PARALLEL_WINDOWS, "the many-series call is spread over the cores");
      QueryResult all = engine.range(query, 0, 6 * HOUR, 60_000, QueryLimits.DEFAULT);
      QueryResult.Matrix matrix = (QueryResult.Matrix) all.data();
      assertEquals(SERIES, matrix.series().size(), query);
      for (QueryResult.Series series : matrix.series()) {
        String host = series.labels().get("host");
        QueryResult alone = engine.range(function + "(requests{host=\"" + host + "\"}[5m])", 0, 6 * HOUR, 60_000,
            QueryLimits.DEFAULT);
        QueryResult.Series expected = ((QueryResult.Matrix) alone.data()).series().get(0);
        assertEquals(expected.labels(), series.labels());
        assertEquals(expected.size(), series.size(), query + " " + host);
        assertArrayEquals(java.util.Arrays.copyOf(expected.timestamps(), expected.size()),
            java.util.Arrays.copyOf(series.timestamps(), series.size()), query + " " + host);
        assertArrayEquals(java.util.Arrays.copyOf(expected.values(), expected.size()),
            java.util.Arrays.copyOf(series.values(), series.size()), query + " " + host);
      }
      if (function.equals("rate")) {
        assertEquals(1, all.infos().size(), "one info for the name that does not end in _total: " + all.infos());
      }
    }
  }
}
