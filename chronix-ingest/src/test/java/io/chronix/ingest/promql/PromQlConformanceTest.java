package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.ConformanceRunner;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prometheus' own PromQL test scripts against the store (docs/promql.md, conformance): each load
 * block goes in through remote write and is flushed into records, each eval is asked through the
 * HTTP API. Prints passed / failed / skipped per file; every eval that needs no native histogram
 * must pass.
 */
class PromQlConformanceTest {

  @TempDir Path dataDir;

  @Test
  void prometheusTestScriptsAgainstTheStore() throws Exception {
    Path dir = Path.of(System.getProperty("chronix.promql.dir"));
    assertTrue(Files.isDirectory(dir), "PromQL test scripts not found at " + dir.toAbsolutePath());
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("solr.openAdminHandlers", "true") // clearing between scripts deletes through Solr
        .with("data.dir", dataDir.toString()).with("compaction.interval", "0")).start()) {
      PrometheusApiClient api = new PrometheusApiClient(server.baseUrl());
      ConformanceRunner runner = new ConformanceRunner(new StoreBackend(server, api));
      List<Path> files;
      try (Stream<Path> list = Files.list(dir)) {
        files = list.filter(p -> p.toString().endsWith(".test")).sorted().toList();
      }
      List<String> failures = new ArrayList<>();
      int[] total = new int[3];
      for (Path file : files) {
        List<ConformanceRunner.Outcome> outcomes = runner.run(file);
        int[] counts = new int[3];
        for (ConformanceRunner.Outcome outcome : outcomes) {
          counts[outcome.status().ordinal()]++;
          total[outcome.status().ordinal()]++;
          if (outcome.status() == ConformanceRunner.Status.FAILED) {
            failures.add(outcome.file() + ":" + outcome.line() + " " + outcome.query() + ": " + outcome.reason());
          }
        }
        System.out.printf("PromQL conformance %-20s passed %4d  failed %4d  skipped %4d%n", file.getFileName(),
            counts[0], counts[1], counts[2]);
      }
      System.out.printf("PromQL conformance %-20s passed %4d  failed %4d  skipped %4d (native histograms)%n", "total",
          total[0], total[1], total[2]);
      failures.forEach(f -> System.out.println("PromQL conformance FAIL " + f));
      assertTrue(total[0] > 700, "the scripts ran: " + total[0] + " evals passed");
      assertEquals(List.of(), failures);
    }
  }

  /** The store behind its HTTP API: remote write in, flush, queries out; clear deletes everything. */
  private static final class StoreBackend implements ConformanceRunner.Backend {
    private static final HttpClient HTTP = TestHttp.CLIENT;
    private final ChronixServer server;
    private final PrometheusApiClient api;

    StoreBackend(ChronixServer server, PrometheusApiClient api) {
      this.server = server;
      this.api = api;
    }

    @Override
    public void load(List<ConformanceRunner.LoadedSeries> series) {
      List<TimeSeries> request = new ArrayList<>();
      for (ConformanceRunner.LoadedSeries s : series) {
        request.add(PrometheusApiClient.timeSeries(s.labels(), s.timestamps(), s.values()));
      }
      try {
        assertEquals(204, api.remoteWrite(request));
        assertEquals(204, post(server.baseUrl() + "/flush", ""));
      } catch (IOException | InterruptedException e) {
        throw new AssertionError("loading failed", e);
      }
    }

    @Override
    public void clear() {
      try {
        assertEquals(204, post(server.baseUrl() + "/flush", ""));
        assertEquals(200, post(server.solrUrl() + "/chronix/update?commit=true", "{\"delete\":{\"query\":\"*:*\"}}"));
      } catch (IOException | InterruptedException e) {
        throw new AssertionError("clearing failed", e);
      }
    }

    private static int post(String url, String json) throws IOException, InterruptedException {
      return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Override
    public QueryResult instant(String query, long time) {
      try {
        return api.instant(query, time);
      } catch (IOException | InterruptedException e) {
        throw new PromQlException(PromQlException.Type.INTERNAL, "request failed: " + e);
      }
    }

    @Override
    public QueryResult range(String query, long start, long end, long step) {
      try {
        return api.range(query, start, end, step);
      } catch (IOException | InterruptedException e) {
        throw new PromQlException(PromQlException.Type.INTERNAL, "request failed: " + e);
      }
    }
  }
}
