package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability: a server in its own JVM ingests a known stream and is killed with SIGKILL at random
 * moments, ten times; every point that was acknowledged must then be readable exactly once, and the
 * store must hold no point twice.
 */
class CrashRecoveryTest {

  private static final int SERIES = 5;
  private static final int POINTS_PER_SERIES_PER_BATCH = 20;
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;

  /** The points of batch b: for every series, timestamps T0 + (b*20 + i) ms, value b*20 + i. */
  private static String batch(int b) {
    StringBuilder lines = new StringBuilder();
    for (int s = 0; s < SERIES; s++) {
      for (int i = 0; i < POINTS_PER_SERIES_PER_BATCH; i++) {
        long n = (long) b * POINTS_PER_SERIES_PER_BATCH + i;
        lines.append("crash_").append(s).append(",run=x value=").append(n).append(' ')
            .append(T0 + n * 1_000_000L).append('\n');
      }
    }
    return lines.toString();
  }

  @Test
  void everyAcknowledgedPointSurvivesTenKills() throws Exception {
    Random random = new Random(20261122);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    List<Integer> acknowledged = new ArrayList<>();
    AtomicInteger nextBatch = new AtomicInteger();
    for (int cycle = 0; cycle < 10; cycle++) {
      try (ServerProcess server = ServerProcess.start(dataDir,
          "chunk.maxPoints=300", "chunk.maxAge=500ms", "flush.interval=200ms")) {
        AtomicBoolean running = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
          while (running.get()) {
            int b = nextBatch.getAndIncrement();
            try {
              HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write"))
                  .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(batch(b))).build(),
                  HttpResponse.BodyHandlers.ofString());
              if (response.statusCode() == 204) {
                synchronized (acknowledged) {
                  acknowledged.add(b);
                }
              }
            } catch (Exception e) {
              return; // the server died under this request: the batch is not acknowledged
            }
          }
        });
        writer.start();
        Thread.sleep(300 + random.nextInt(2200));
        server.kill();
        running.set(false);
        writer.join(15_000);
      }
    }
    assertTrue(acknowledged.size() > 20, "the stream made progress: " + acknowledged.size() + " batches");

    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      for (int s = 0; s < SERIES; s++) {
        JsonNode series = query(http, server.solrUrl() + "/chronix/query?wt=json&precision=ns&fl=dataAsJson&q=name:crash_" + s);
        assertEquals(1, series.at("/response/numFound").asInt());
        JsonNode data = JSON.readTree(series.at("/response/docs/0/dataAsJson").asText());
        Map<Long, Double> stored = new HashMap<>();
        for (int i = 0; i < data.get("timestamps").size(); i++) {
          stored.put(data.get("timestamps").get(i).asLong(), data.get("values").get(i).asDouble());
        }
        for (int b : acknowledged) {
          for (int i = 0; i < POINTS_PER_SERIES_PER_BATCH; i++) {
            long n = (long) b * POINTS_PER_SERIES_PER_BATCH + i;
            assertEquals((double) n, stored.get(T0 + n * 1_000_000L), "acknowledged point " + n + " of crash_" + s);
          }
        }
        JsonNode records = query(http, server.solrUrl() + "/chronix/select?wt=json&rows=100000&fl=count&q=name:crash_" + s);
        long storedCount = 0;
        for (JsonNode record : records.at("/response/docs")) {
          storedCount += record.get("count").asLong();
        }
        assertEquals(stored.size(), storedCount, "crash_" + s + ": records hold every point exactly once");
      }
    }
  }

  private static JsonNode query(HttpClient http, String url) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }
}
