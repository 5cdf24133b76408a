package io.chronix.ingest.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricFilter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import com.codahale.metrics.graphite.Graphite;
import com.codahale.metrics.graphite.GraphiteReporter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dropwizard Metrics' own GraphiteReporter reports a registry into the server. */
class DropwizardGraphiteReporterTest {

  @TempDir Path dataDir;

  @Test
  void registryReportsArriveAsSeries() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      MetricRegistry registry = new MetricRegistry();
      Counter requests = registry.counter("requests");
      AtomicInteger queue = new AtomicInteger(7);
      registry.gauge("queue.size", () -> queue::get);
      Timer latency = registry.timer("latency");
      GraphiteReporter reporter = GraphiteReporter.forRegistry(registry)
          .prefixedWith("shop")
          .convertDurationsTo(TimeUnit.MILLISECONDS)
          .filter(MetricFilter.ALL)
          .build(new Graphite("127.0.0.1", server.graphiteTcpPort()));
      for (int round = 1; round <= 3; round++) {
        requests.inc(10);
        queue.set(7 * round);
        latency.update(5 * round, TimeUnit.MILLISECONDS);
        reporter.report();
        Thread.sleep(1100); // Graphite timestamps are whole seconds
      }
      reporter.close(); // stopping reports a last time
      // per report: the counter, the gauge and the timer's 15 values (count, max, mean, ..., rates)
      awaitBuffered(server, 3 * 17);
      assertEquals(204, post(server.baseUrl() + "/flush").statusCode());

      assertFirstValues(data(query(server, "shop.requests.count")).get("values"), 10, 20, 30);
      assertFirstValues(data(query(server, "shop.queue.size")).get("values"), 7, 14, 21);
      JsonNode max = data(query(server, "shop.latency.max")).get("values");
      assertEquals(15.0, max.get(max.size() - 1).asDouble(), "timer max in ms");
    }
  }

  private static void assertFirstValues(JsonNode values, double... expected) {
    assertTrue(values.size() >= expected.length, values.toString());
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], values.get(i).asDouble(), values.toString());
    }
  }

  private static void awaitBuffered(ChronixServer server, long atLeast) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.buffers().bufferedPoints() < atLeast && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(server.buffers().bufferedPoints() >= atLeast, "reports arrived: " + server.buffers().bufferedPoints());
  }

  private static HttpResponse<String> post(String url) throws Exception {
    return TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode query(ChronixServer server, String name) throws Exception {
    HttpResponse<String> response = TestHttp.CLIENT.send(HttpRequest.newBuilder(
        URI.create(server.solrUrl() + "/chronix/query?wt=json&fl=dataAsJson&q=name:" + name))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    JsonNode json = new ObjectMapper().readTree(response.body());
    assertEquals(1, json.at("/response/numFound").asInt(), name + ": " + response.body());
    return json;
  }

  private static JsonNode data(JsonNode response) throws Exception {
    return new ObjectMapper().readTree(response.at("/response/docs/0/dataAsJson").asText());
  }
}
