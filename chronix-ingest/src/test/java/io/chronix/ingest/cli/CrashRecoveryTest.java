package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import io.chronix.ingest.protocol.prometheus.SnappyLibraryDirectory;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability under SIGKILL: a server in its own JVM takes three streams at once, over line
 * protocol, Prometheus remote write and OpenTSDB, and is killed 24 times: while ingesting, while a
 * compaction runs, and while it starts and replays its log. Every point that was acknowledged must
 * then be readable exactly once, and after a compaction the records must hold no point twice.
 */
class CrashRecoveryTest {

  private static final int SERIES = 4;
  private static final int POINTS_PER_SERIES_PER_BATCH = 20;
  private static final int KILLS = 24;
  private static final long T0_MS = 1_700_000_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;

  /** One acknowledged stream: its series name prefix and how to send batch b. */
  private abstract static class Stream {
    final String prefix;
    final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    final AtomicInteger next = new AtomicInteger();

    Stream(String prefix) {
      this.prefix = prefix;
    }

    abstract boolean send(HttpClient http, String baseUrl, int batch) throws Exception;

    static long value(int batch, int i) {
      return (long) batch * POINTS_PER_SERIES_PER_BATCH + i;
    }

    /** Whether the body posted to the path was acknowledged. */
    static boolean post(HttpClient http, String url, String body) throws Exception {
      return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding())
          .statusCode() == 204;
    }
  }

  private static final class LineProtocol extends Stream {
    LineProtocol() {
      super("crash_lp");
    }

    @Override
    boolean send(HttpClient http, String baseUrl, int b) throws Exception {
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < SERIES; s++) {
        for (int i = 0; i < POINTS_PER_SERIES_PER_BATCH; i++) {
          long n = value(b, i);
          lines.append(prefix).append('_').append(s).append(",run=x value=").append(n).append(' ').append(T0_MS + n)
              .append('\n');
        }
      }
      return post(http, baseUrl + "/write?precision=ms", lines.toString());
    }
  }

  private static final class OpenTsdb extends Stream {
    OpenTsdb() {
      super("crash_tsdb");
    }

    @Override
    boolean send(HttpClient http, String baseUrl, int b) throws Exception {
      StringBuilder json = new StringBuilder("[");
      for (int s = 0; s < SERIES; s++) {
        for (int i = 0; i < POINTS_PER_SERIES_PER_BATCH; i++) {
          long n = value(b, i);
          json.append(json.length() > 1 ? "," : "").append("{\"metric\":\"").append(prefix).append('_').append(s)
              .append("\",\"timestamp\":").append(T0_MS + n).append(",\"value\":").append(n)
              .append(",\"tags\":{\"run\":\"x\"}}");
        }
      }
      return post(http, baseUrl + "/api/put", json.append(']').toString());
    }
  }

  private static final class RemoteWrite extends Stream {
    RemoteWrite() {
      super("crash_rw");
    }

    @Override
    boolean send(HttpClient http, String baseUrl, int b) throws Exception {
      List<TimeSeries> series = new ArrayList<>();
      for (int s = 0; s < SERIES; s++) {
        long[] t = new long[POINTS_PER_SERIES_PER_BATCH];
        double[] v = new double[POINTS_PER_SERIES_PER_BATCH];
        for (int i = 0; i < t.length; i++) {
          t[i] = T0_MS + value(b, i);
          v[i] = value(b, i);
        }
        series.add(PrometheusApiClient.timeSeries(Labels.of("__name__", prefix + "_" + s, "run", "x"), t, v));
      }
      return new PrometheusApiClient(baseUrl).remoteWrite(series) == 204;
    }
  }

  @Test
  void everyAcknowledgedPointSurvivesKillsWhileIngestingCompactingAndReplaying() throws Exception {
    Random random = new Random(20261122);
    HttpClient http = TestHttp.builder().connectTimeout(Duration.ofSeconds(2)).build();
    List<Stream> streams = List.of(new LineProtocol(), new RemoteWrite(), new OpenTsdb());
    String[] settings = {"chunk.maxPoints=300", "chunk.maxAge=3s", "flush.interval=200ms", "compaction.interval=1s"};
    int kills = 0;
    int killedWhileCompacting = 0;
    int killedWhileStarting = 0;
    for (int cycle = 0; cycle < KILLS; cycle++) {
      if (cycle % 4 == 3) {
        // while it starts: Solr loads, the log replays what the last kill left
        try (ServerProcess starting = ServerProcess.launchOnly(dataDir, settings)) {
          Thread.sleep(1500 + random.nextInt(2500));
          starting.kill();
          kills++;
          killedWhileStarting++;
        }
        continue;
      }
      try (ServerProcess server = ServerProcess.start(dataDir, settings)) {
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> writers = new ArrayList<>();
        for (Stream stream : streams) {
          Thread writer = new Thread(() -> {
            while (running.get()) {
              int b = stream.next.getAndIncrement();
              try {
                if (stream.send(http, server.baseUrl(), b)) {
                  stream.acknowledged.add(b);
                }
              } catch (Exception e) {
                return; // the server died under this request: the batch is not acknowledged
              }
            }
          });
          writer.start();
          writers.add(writer);
        }
        Thread.sleep(300 + random.nextInt(2200));
        if (cycle % 4 == 1) {
          // while a compaction runs: small records of the last seconds are being merged
          Thread compact = new Thread(() -> {
            try {
              http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/compact"))
                  .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            } catch (Exception killed) {
              // expected: the server dies under it
            }
          });
          compact.start();
          Thread.sleep(20 + random.nextInt(150));
          killedWhileCompacting++;
        }
        server.kill();
        kills++;
        running.set(false);
        for (Thread writer : writers) {
          writer.join(15_000);
        }
      }
    }
    assertTrue(kills >= 20 && killedWhileCompacting >= 5 && killedWhileStarting >= 5, kills + " kills");
    // snappy's native library, unpacked anew by every start and left behind by every kill: under the
    // data directory, where each start removed the last kill's copy
    try (var copies = Files.list(SnappyLibraryDirectory.of(dataDir))) {
      assertTrue(copies.count() <= 1, "the killed runs' copies of snappy's library are removed at start");
    }
    for (Stream stream : streams) {
      assertTrue(stream.acknowledged.size() > 20, stream.prefix + " made progress: " + stream.acknowledged.size());
    }

    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      for (Stream stream : streams) {
        for (int s = 0; s < SERIES; s++) {
          String name = stream.prefix + "_" + s;
          Map<Long, Double> stored = readBack(http, server, name);
          for (int b : stream.acknowledged) {
            for (int i = 0; i < POINTS_PER_SERIES_PER_BATCH; i++) {
              long n = Stream.value(b, i);
              assertEquals((double) n, stored.get(T0_MS + n), "acknowledged point " + n + " of " + name);
            }
          }
        }
      }
      HttpResponse<String> compacted = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/compact"))
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, compacted.statusCode(), compacted.body());
      for (Stream stream : streams) {
        for (int s = 0; s < SERIES; s++) {
          String name = stream.prefix + "_" + s;
          Map<Long, Double> stored = readBack(http, server, name);
          JsonNode records = query(http, server.solrUrl() + "/chronix/select?wt=json&rows=100000&fl=count&q=name:" + name);
          long storedCount = 0;
          for (JsonNode record : records.at("/response/docs")) {
            storedCount += record.get("count").asLong();
          }
          assertEquals(stored.size(), storedCount, name + ": after compaction the records hold every point once");
        }
      }
    }
  }

  /** The series' points, each timestamp once (a query joins and de-duplicates). */
  private static Map<Long, Double> readBack(HttpClient http, ChronixServer server, String name) throws Exception {
    JsonNode series = query(http, server.solrUrl() + "/chronix/query?wt=json&fl=dataAsJson&q=name:" + name);
    assertEquals(1, series.at("/response/numFound").asInt(), name);
    JsonNode data = JSON.readTree(series.at("/response/docs/0/dataAsJson").asText());
    Map<Long, Double> stored = new HashMap<>();
    for (int i = 0; i < data.get("timestamps").size(); i++) {
      assertTrue(stored.put(data.get("timestamps").get(i).asLong(), data.get("values").get(i).asDouble()) == null,
          name + ": a timestamp answered twice");
    }
    return stored;
  }

  private static JsonNode query(HttpClient http, String url) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }
}
