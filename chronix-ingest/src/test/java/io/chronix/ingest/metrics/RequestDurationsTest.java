package io.chronix.ingest.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.metrics.RequestDurations.Route;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestDurationsTest {

  @Test
  void pathsFallIntoFewRoutes() {
    assertEquals(Route.WRITE, Route.of("/write"));
    assertEquals(Route.WRITE, Route.of("/api/v1/write"));
    assertEquals(Route.PROMQL, Route.of("/api/v1/query_range"));
    assertEquals(Route.PROMETHEUS_API, Route.of("/api/v1/label/host/values"));
    assertEquals(Route.SOLR, Route.of("/solr/chronix/query"));
    assertEquals(Route.INFLUX_QUERY, Route.of("/query"));
    assertEquals(Route.OTHER, Route.of("/ping"));
    assertEquals(Route.OTHER, Route.of("/no/such/path/" + "x".repeat(100)));
  }

  @Test
  void eachRequestCountsInTheFirstBucketThatHoldsIt() throws Exception {
    RequestDurations durations = new RequestDurations();
    durations.record(Route.SOLR, 3_000_000, -1); // 3 ms: over 2.5 ms, within 5 ms
    durations.record(Route.SOLR, 5_000_000, -1); // on a bound: within it
    durations.record(Route.SOLR, 40_000_000_000L, -1); // beyond the last finite bound
    durations.record(Route.WRITE, 200_000, -1);

    String text = text(durations);
    String solr = "chronix_http_request_duration_seconds_bucket{route=\"solr\",le=\"";
    assertTrue(text.contains(solr + "0.0025\"} 0\n"), text);
    assertTrue(text.contains(solr + "0.005\"} 2\n"), text);
    assertTrue(text.contains(solr + "10.0\"} 2\n"), text);
    assertTrue(text.contains(solr + "+Inf\"} 3\n"), text);
    assertTrue(text.contains("chronix_http_request_duration_seconds_count{route=\"solr\"} 3\n"), text);
    assertTrue(text.contains("chronix_http_request_duration_seconds_sum{route=\"solr\"} 40.008\n"), text);
    assertTrue(text.contains("chronix_http_request_duration_seconds_bucket{route=\"write\",le=\"5.0E-4\"} 1\n"), text);
    assertTrue(!text.contains("route=\"promql\""), "a route without requests is left out: " + text);
  }

  @Test
  void cpuTimesCountForAllRequestsAndForTheSlowOnesApart() throws Exception {
    RequestDurations durations = new RequestDurations();
    durations.record(Route.PROMQL, 3_000_000, 2_000_000);
    durations.record(Route.PROMQL, 10_000_000, 4_000_000); // on the bound: not slow
    durations.record(Route.PROMQL, 25_000_000, 5_000_000);
    durations.record(Route.PROMQL, 30_000_000, -1); // a thread whose CPU time is not known
    durations.record(Route.WRITE, 12_000_000, 11_000_000);

    String text = text(durations);
    assertTrue(text.contains("chronix_http_request_cpu_seconds_total{route=\"promql\"} 0.011\n"), text);
    assertTrue(text.contains("chronix_http_slow_request_seconds_total{route=\"promql\"} 0.025\n"), text);
    assertTrue(text.contains("chronix_http_slow_request_cpu_seconds_total{route=\"promql\"} 0.005\n"), text);
    assertTrue(text.contains("chronix_http_slow_request_cpu_seconds_total{route=\"write\"} 0.011\n"), text);
    assertTrue(text.contains("chronix_http_request_duration_seconds_count{route=\"promql\"} 4\n"), text);
    assertTrue(!text.contains("route=\"solr\""), "a route without requests is left out: " + text);
  }

  private static String text(RequestDurations durations) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new PrometheusTextFormatWriter(false).write(out, new MetricSnapshots(durations.snapshots()));
    return out.toString(StandardCharsets.UTF_8);
  }
}
