package io.chronix.ingest.clients;

import io.chronix.ingest.TestHttp;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real Prometheus (Debian package, scripts/install-test-deps.sh) in its own process, for tests. */
final class PrometheusProcess implements AutoCloseable {

  static final Path BINARY = Path.of("/usr/bin/prometheus");
  static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  private final Process process;
  private final int port;
  private final Path log;

  PrometheusProcess(Path dir, String config) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path configFile = dir.resolve("prometheus.yml");
    Files.writeString(configFile, config);
    port = freePort();
    log = dir.resolve("prometheus.log");
    process = new ProcessBuilder(BINARY.toString(), "--config.file=" + configFile, "--storage.tsdb.path=" + dir.resolve("tsdb"),
        "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    awaitReady();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient http = TestHttp.CLIENT;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("prometheus exited: " + Files.readString(log));
      }
      try {
        if (http.send(HttpRequest.newBuilder(URI.create(url() + "/-/ready")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("prometheus not ready after 60 s: " + Files.readString(log));
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  String log() throws IOException {
    return Files.readString(log);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
