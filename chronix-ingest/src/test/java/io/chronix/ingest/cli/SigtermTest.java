package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code chronix start} in its own JVM: SIGTERM writes buffered points before the process ends. */
class SigtermTest {

  private static final Pattern READY = Pattern.compile("ready at (http://\\S+) ");

  @TempDir Path dataDir;

  @Test
  void sigtermWritesBufferedPoints() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        ChronixCli.class.getName(), "start", "--http-port", "0", "--data-dir", dataDir.toString()))
        .redirectErrorStream(true).start();
    try {
      String baseUrl = awaitReady(process);
      HttpResponse<String> write = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(baseUrl + "/write?precision=s"))
              .POST(HttpRequest.BodyPublishers.ofString("term value=42 1700000000")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(204, write.statusCode(), write.body());
      process.destroy(); // SIGTERM
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "server stops within a minute");
    } finally {
      process.destroyForcibly();
    }
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().with("http.port", "0")
        .with("data.dir", dataDir.toString())).start()) {
      HttpResponse<String> query = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(server.solrUrl() + "/chronix/query?q=name:term&fl=dataAsJson&precision=s&wt=json")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(query.body().contains("{\\\"timestamps\\\":[1700000000],\\\"values\\\":[42.0]}"), query.body());
    }
  }

  private static String awaitReady(Process process) throws Exception {
    BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    String line;
    while (System.nanoTime() < deadline && (line = output.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher matcher = READY.matcher(line);
      if (matcher.find()) {
        // keep draining so the child never blocks on a full pipe
        Thread drain = new Thread(() -> output.lines().forEach(l -> { }));
        drain.setDaemon(true);
        drain.start();
        return matcher.group(1);
      }
    }
    throw new AssertionError("server did not report ready:\n" + seen);
  }
}
