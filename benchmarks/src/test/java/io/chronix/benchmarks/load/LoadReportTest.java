package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    ServerDurations durations = ServerDurations.parse("""
        chronix_http_request_duration_seconds_bucket{route="solr",le="0.01"} 450
        chronix_http_request_duration_seconds_bucket{route="solr",le="+Inf"} 450
        """);
    String markdown = new LoadReport(new GatlingResults.Run(requests, ServerTrendTest.START), samples, durations, 90)
        .markdown();
    assertTrue(markdown.contains("| solr | 450 | 0 (0.00 %) | 10 ms | - / - |\n"),
        "the server's own time: " + markdown);
    String writeLine = "- write: 1 of 90 s held an answer over 10 ms (0 in the first minute); after it at 75 s\n";
    String queryLine = "- query raw 5m: 3 of 90 s held an answer over 10 ms (1 in the first minute); after it at 80-81 s\n";
    assertTrue(markdown.contains(writeLine), markdown);
    assertTrue(markdown.contains(queryLine), markdown);
    assertTrue(markdown.indexOf(queryLine) < markdown.indexOf("| server ("), markdown);
  }

  /** Two servers' runs side by side: each request type both sent, ours before theirs, and both worst p99s. */
  @Test
  void twoServersRunsAreComparedRequestTypeByRequestType() {
    Map<String, RequestStats> ours = new LinkedHashMap<>();
    ours.put(LoadShape.WRITE, stats(LoadShape.WRITE, 2, 5, 12, 0));
    ours.put(LoadShape.PROMQL_MAX, stats(LoadShape.PROMQL_MAX, 3, 7, 17, 0));
    ours.put(LoadShape.PROMQL_RANGE, stats(LoadShape.PROMQL_RANGE, 3, 8, 18, 1));
    Map<String, RequestStats> theirs = new LinkedHashMap<>();
    theirs.put(LoadShape.WRITE, stats(LoadShape.WRITE, 1, 3, 40, 0));
    theirs.put(LoadShape.PROMQL_MAX, stats(LoadShape.PROMQL_MAX, 2, 4, 9, 0));
    theirs.put(LoadShape.PROMQL_RANGE, stats(LoadShape.PROMQL_RANGE, 2, 5, 11, 0));
    String table = LoadReport.ratios(report(ours), report(theirs));
    assertEquals("""
        | request | p50 ms | p95 ms | p99 ms | errors |
        |---|---|---|---|---|
        | write | 2 / 1 | 5 / 3 | 12 / 40 | 0 / 0 |
        | promql max_over_time 5m | 3 / 2 | 7 / 4 | 17 / 9 | 0 / 0 |
        | promql query_range 15m | 3 / 2 | 8 / 5 | 18 / 11 | 1 / 0 |
        Worst dashboard p99 (goal under 10 ms): ours 18 ms, theirs 11 ms.
        """, table);
  }

  /** The peers' mix asks in PromQL alone, which both servers answer; the mix keeps Chronix' queries. */
  @Test
  void eachMixSendsWritesAndThreeDashboards() {
    assertEquals(List.of(LoadShape.WRITE, LoadShape.QUERY_CF, LoadShape.QUERY_RAW, LoadShape.PROMQL_RANGE),
        LoadShape.Mix.CHRONIX.requests());
    assertEquals(List.of(LoadShape.WRITE, LoadShape.PROMQL_MAX, LoadShape.PROMQL_RAW, LoadShape.PROMQL_RANGE),
        LoadShape.Mix.PROMQL.requests());
  }

  private static RequestStats stats(String name, int p50, int p95, int p99, int failed) {
    return new RequestStats(name, 1_000, failed, p50, p95, p99, p99 + 1, List.of(), SlowSeconds.none(60, 10));
  }

  private static LoadReport report(Map<String, RequestStats> requests) {
    List<Sample> samples = List.of(ServerTrendTest.sample(0, 100 << 20, CollectorTotals.UNKNOWN));
    return new LoadReport(new GatlingResults.Run(requests, ServerTrendTest.START), samples, ServerDurations.none(), 60);
  }
}
