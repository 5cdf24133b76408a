package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code chronix start} in its own JVM: SIGTERM writes buffered points before the process ends. */
class SigtermTest {

  @TempDir Path dataDir;

  @Test
  void sigtermWritesBufferedPoints() throws Exception {
    try (ServerProcess server = ServerProcess.start(dataDir)) {
      HttpResponse<String> write = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write?precision=s"))
              .POST(HttpRequest.BodyPublishers.ofString("term value=42 1700000000")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(204, write.statusCode(), write.body());
      assertTrue(server.terminate(60), "server stops within a minute");
    }
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      assertTrue(server.buffers().bufferedPoints() == 0, "nothing left to replay: the clean stop wrote it");
      HttpResponse<String> query = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(server.solrUrl() + "/chronix/query?q=name:term&fl=dataAsJson&precision=s&wt=json")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(query.body().contains("{\\\"timestamps\\\":[1700000000],\\\"values\\\":[42.0]}"), query.body());
    }
  }
}
