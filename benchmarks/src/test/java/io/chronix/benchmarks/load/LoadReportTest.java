package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.benchmarks.load.GatlingResults.RequestStats;
import io.chronix.benchmarks.load.ServerSampler.CollectorTotals;
import io.chronix.benchmarks.load.ServerSampler.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadReportTest {

  /** Every request type gets its slow-seconds line under the table, before the server's figures. */
  @Test
  void theReportNamesEachRequestTypesSlowSeconds() {
    int[] second = java.util.stream.IntStream.range(0, 90).toArray();
    int[] writes = new int[90];
    int[] queries = new int[90];
    writes[75] = 40;
    queries[5] = 12;
    queries[80] = 30;
    queries[81] = 30;
    Map<String, RequestStats> requests = new LinkedHashMap<>();
    requests.put(LoadShape.WRITE, new RequestStats(LoadShape.WRITE, 9_000, 0, 2, 5, 20, 40, List.of(),
        SlowSeconds.of(second, writes, 10, 90)));
    requests.put("query raw 5m", new RequestStats("query raw 5m", 450, 0, 3, 9, 28, 30, List.of(),
        SlowSeconds.of(second, queries, 10, 90)));
    List<Sample> samples = new ArrayList<>();
    for (int s = 0; s <= 90; s++) {
      samples.add(ServerTrendTest.sample(s, 100 << 20, new CollectorTotals(s, 10L * s)));
    }
    String markdown = new LoadReport(new GatlingResults.Run(requests, ServerTrendTest.START), samples, 90).markdown();
    String writeLine = "- write: 1 of 90 s held an answer over 10 ms (0 in the first minute); after it at 75 s\n";
    String queryLine = "- query raw 5m: 3 of 90 s held an answer over 10 ms (1 in the first minute); after it at 80-81 s\n";
    assertTrue(markdown.contains(writeLine), markdown);
    assertTrue(markdown.contains(queryLine), markdown);
    assertTrue(markdown.indexOf(queryLine) < markdown.indexOf("| server ("), markdown);
  }
}
