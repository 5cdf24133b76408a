package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.wal.FsyncPolicy;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readiness signal means every listener accepts: from the first 204 of {@code /ping} on, the
 * Graphite and OpenTSDB ports take connections, and before it no endpoint pretends to be missing.
 */
class ReadinessTest {

  private static final HttpClient HTTP = TestHttp.builder().connectTimeout(Duration.ofMillis(200)).build();

  @TempDir Path dir;

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void pingSaysReadyOnlyWhenEverythingAccepts() throws Exception {
    int http = freePort();
    int graphite = freePort();
    int openTsdb = freePort();
    ServerConfig config = ServerConfig.defaults().with("data.dir", dir.toString()).with("http.port", String.valueOf(http))
        .with("graphite.tcpPort", String.valueOf(graphite)).with("graphite.udpPort", "off")
        .with("opentsdb.telnetPort", String.valueOf(openTsdb));
    logPointsToReplay(dir.resolve("wal"));
    ChronixServer server = new ChronixServer(config);
    CompletableFuture<ChronixServer> started = CompletableFuture.supplyAsync(() -> {
      try {
        return server.start();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    List<Integer> beforeReady = new ArrayList<>();
    try {
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (System.nanoTime() < deadline) {
        int ping = status("http://127.0.0.1:" + http + "/ping");
        if (ping == 204) {
          try (Socket first = new Socket("127.0.0.1", graphite); Socket second = new Socket("127.0.0.1", openTsdb)) {
            assertTrue(first.isConnected() && second.isConnected());
          }
          break;
        }
        if (ping > 0) {
          beforeReady.add(ping);
          int write = status("http://127.0.0.1:" + http + "/write");
          if (!server.isReady()) { // answered before the server was ready
            beforeReady.add(write);
          }
        }
      }
      started.join();
      assertTrue(server.isReady());
      assertTrue(beforeReady.size() >= 2, "the starting phase was seen: " + beforeReady);
      for (int status : beforeReady) {
        assertTrue(status == 503 || status == -1, "while starting, endpoints answer 503: " + beforeReady);
      }
    } finally {
      started.join().close();
    }
  }

  /** A log to replay at start, so that starting takes a while after the HTTP port opens. */
  private static void logPointsToReplay(Path walDir) throws IOException {
    try (WriteAheadLog wal = new WriteAheadLog(walDir, 64 << 20, FsyncPolicy.NEVER, 1000)) {
      wal.replay((batch, segment) -> { });
      for (int b = 0; b < 40; b++) {
        PointBatch batch = new PointBatch(10_000);
        for (int i = 0; i < 10_000; i++) {
          batch.accept(SeriesKey.metric("replayed", Map.of("n", String.valueOf(i % 100))), (b * 10_000L + i) * 1_000_000L, i);
        }
        wal.append(batch);
      }
    }
  }

  /** The status of a GET, -1 when nothing accepts the connection yet. */
  private static int status(String url) throws InterruptedException {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException notListening) {
      Thread.sleep(5);
      return -1;
    }
  }
}
