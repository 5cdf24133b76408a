package io.chronix.ingest.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.protocol.prometheus.SnappyLibraryDirectory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /metrics follows what the server does: buffered points and the log, records written, compactions. */
class ServerMetricsTest {

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final long T0 = 1_700_000_000_000L;
  private static final int NATIVE_LIBRARY_BYTES = 20 << 20;

  @TempDir Path dir;

  @Test
  void theFiguresFollowWritesFlushesAndCompactions() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      // as large as the store ten thousand times over: what the server unpacks there is no stored data
      Files.write(SnappyLibraryDirectory.of(dir).resolve("libsnappyjava.so"), new byte[NATIVE_LIBRARY_BYTES]);
      for (int batch = 0; batch < 3; batch++) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 10; i++) {
          lines.append("cpu value=").append(i).append(' ').append(T0 + (batch * 10 + i) * 1000L).append('\n');
        }
        send(server, "/write?precision=ms", lines.toString());
        if (batch == 0) {
          Map<String, Double> buffered = metrics(server);
          assertEquals(10.0, buffered.get("chronix_buffered_points"));
          assertTrue(buffered.get("chronix_wal_bytes") > 0, "the points are in the log: " + buffered);
          assertTrue(buffered.get("chronix_wal_segments") >= 1);
          assertEquals(10.0, buffered.get("chronix_ingested_points_total{protocol=\"influx\"}"));
        }
        send(server, "/flush", "");
      }
      send(server, "/compact", "");
      Map<String, Double> after = metrics(server);
      assertEquals(0.0, after.get("chronix_buffered_points"));
      assertEquals(30.0, after.get("chronix_ingested_points_total{protocol=\"influx\"}"));
      assertEquals(1.0, after.get("chronix_compaction_runs_total"));
      assertEquals(3.0, after.get("chronix_compaction_records_read_total"), "three small records merged");
      assertEquals(1.0, after.get("chronix_compaction_records_written_total"));
      // the server's own time for each request, by route: three writes, none of them counted twice
      assertEquals(3.0, after.get("chronix_http_request_duration_seconds_count{route=\"write\"}"));
      assertEquals(3.0, after.get("chronix_http_request_duration_seconds_bucket{route=\"write\",le=\"+Inf\"}"));
      assertTrue(after.get("chronix_http_request_duration_seconds_sum{route=\"write\"}") > 0, after.toString());
      // and its threads' CPU time over them: some, and no more than the time itself
      double writesCpu = after.get("chronix_http_request_cpu_seconds_total{route=\"write\"}");
      assertTrue(writesCpu > 0 && writesCpu <= after.get("chronix_http_request_duration_seconds_sum{route=\"write\"}"),
          after.toString());
      double dataDirBytes = after.get("chronix_data_dir_bytes");
      assertTrue(dataDirBytes > 0 && dataDirBytes < NATIVE_LIBRARY_BYTES,
          "the data directory without the native library's directory: " + dataDirBytes);
    }
  }

  /** name{labels} -> value of every sample line. */
  private static Map<String, Double> metrics(ChronixServer server) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    Map<String, Double> samples = new HashMap<>();
    for (String line : response.body().split("\n")) {
      if (!line.startsWith("#") && !line.isBlank()) {
        int space = line.lastIndexOf(' ');
        samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
      }
    }
    return samples;
  }

  private static void send(ChronixServer server, String path, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertTrue(response.statusCode() < 300, path + ": " + response.statusCode() + " " + response.body());
  }
}
