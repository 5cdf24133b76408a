package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.benchmarks.ProcessStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerReportTest {

  /**
   * The table of the query mix by turns: each group's p50 and p99 over the measured queries, ours
   * over VictoriaMetrics' median, and the rounds in which ours took at most as long in all.
   */
  @Test
  void theQueryRoundsTableComparesMediansAndCountsRounds() {
    Map<String, QueryMix.Latencies> latencies = new LinkedHashMap<>();
    latencies.put("VictoriaMetrics", latencies(new long[] {1_000_000, 2_000_000, 3_000_000}, new long[] {3, 5}));
    latencies.put("Chronix", latencies(new long[] {500_000, 1_000_000, 4_000_000}, new long[] {2, 4}));
    QueryRounds rounds = new QueryRounds(latencies, Map.of("VictoriaMetrics", new ProcessStats(0, 0, 1.2),
        "Chronix", new ProcessStats(0, 0, 2.5)), List.of("Chronix", "VictoriaMetrics"));

    String table = PeerReport.queryRoundsTable(rounds, 3);
    assertTrue(table.contains("#### Query mix, 2 rounds by turns"), table);
    assertTrue(table.contains("(3 warm-up rounds each, then the measured ones; first in each measured round: "
        + "Chronix, VictoriaMetrics)"), table);
    assertTrue(table.contains("| max 1 h | 2.00 / 3.00 | 1.00 / 4.00 | 0.50 | 2 of 2 |"), table);
    assertTrue(table.contains("VictoriaMetrics 1.2 s, Chronix 2.5 s."), table);
  }

  private static QueryMix.Latencies latencies(long[] sortedNanos, long[] roundTotals) {
    return new QueryMix.Latencies(Map.of("max 1 h", sortedNanos), Map.of("max 1 h", roundTotals), Map.of());
  }
}
