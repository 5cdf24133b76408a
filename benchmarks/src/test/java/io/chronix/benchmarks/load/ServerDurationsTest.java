package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerDurationsTest {

  /** As the server writes them: cumulative buckets, a route a data point; other families passed over. */
  private static final String METRICS = """
      # TYPE chronix_buffered_points gauge
      chronix_buffered_points 10.0
      # TYPE chronix_http_request_duration_seconds histogram
      chronix_http_request_duration_seconds_bucket{route="solr",le="0.005"} 900
      chronix_http_request_duration_seconds_bucket{route="solr",le="0.01"} 985
      chronix_http_request_duration_seconds_bucket{route="solr",le="0.025"} 995
      chronix_http_request_duration_seconds_bucket{route="solr",le="+Inf"} 1000
      chronix_http_request_duration_seconds_count{route="solr"} 1000
      chronix_http_request_duration_seconds_sum{route="solr"} 4.0
      chronix_http_request_duration_seconds_bucket{route="write",le="0.005"} 200
      chronix_http_request_duration_seconds_bucket{route="write",le="0.01"} 200
      chronix_http_request_duration_seconds_bucket{route="write",le="+Inf"} 200
      chronix_http_request_duration_seconds_sum{route="write"} 0.4
      # TYPE chronix_http_request_cpu_seconds counter
      chronix_http_request_cpu_seconds_total{route="solr"} 3.0
      chronix_http_request_cpu_seconds_total{route="write"} 0.3
      # TYPE chronix_http_slow_request_seconds counter
      chronix_http_slow_request_seconds_total{route="solr"} 0.5
      chronix_http_slow_request_seconds_total{route="write"} 0.0
      # TYPE chronix_http_slow_request_cpu_seconds counter
      chronix_http_slow_request_cpu_seconds_total{route="solr"} 0.2
      chronix_http_slow_request_cpu_seconds_total{route="write"} 0.0
      """;

  @Test
  void eachRouteSaysHowManyTookLongerThanTheGoalAndWhereItsP99Lies() {
    String table = ServerDurations.parse(METRICS).markdown();
    assertTrue(table.contains("| solr | 1,000 | 15 (1.50 %) | 25 ms | 75 % / 40 % |"), table);
    assertTrue(table.contains("| write | 200 | 0 (0.00 %) | 5 ms | 75 % / - |"), table);
    assertEquals(4, table.lines().count(), table);
  }

  @Test
  void aServerWithoutTheCpuCountersLeavesTheirColumnOpen() {
    String histogramsOnly = METRICS.substring(0, METRICS.indexOf("# TYPE chronix_http_request_cpu"));
    String table = ServerDurations.parse(histogramsOnly).markdown();
    assertTrue(table.contains("| solr | 1,000 | 15 (1.50 %) | 25 ms | - / - |"), table);
  }

  @Test
  void aServerWithoutTheHistogramsHasNone() {
    assertTrue(ServerDurations.parse("vm_requests_total 3\n").isEmpty());
    assertTrue(ServerDurations.parse("chronix_http_request_cpu_seconds_total{route=\"solr\"} 3.0\n").isEmpty(),
        "a route with counters and no buckets is left out");
    assertEquals("", ServerDurations.none().markdown());
  }
}
