package io.chronix.ingest.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * collectd from Debian's packages (scripts/install-test-deps.sh) sends its load and memory readings
 * to the server twice: write_http with Format "JSON" and write_graphite over TCP.
 */
class CollectdTest {

  private static final Path COLLECTD = Path.of("/usr/sbin/collectd");

  @TempDir Path dir;

  @Test
  void writeHttpJsonAndWriteGraphiteSeriesAreQueryable() throws Exception {
    assertTrue(Files.isExecutable(COLLECTD), "collectd missing: scripts/install-test-deps.sh installs it");
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.resolve("data").toString())).start()) {
      Path config = dir.resolve("collectd.conf");
      Files.writeString(config, String.join("\n",
          "Hostname \"chronix-test\"",
          "FQDNLookup false",
          "Interval 1",
          "BaseDir \"" + dir + "\"",
          "PIDFile \"" + dir.resolve("collectd.pid") + "\"",
          "PluginDir \"/usr/lib/collectd\"",
          "TypesDB \"/usr/share/collectd/types.db\"",
          "LoadPlugin load",
          "LoadPlugin memory",
          "LoadPlugin write_http",
          "LoadPlugin write_graphite",
          "<Plugin write_http>",
          "  <Node \"chronix\">",
          "    URL \"" + server.baseUrl() + "/collectd\"",
          "    Format \"JSON\"",
          "    BufferSize 4096",
          "  </Node>",
          "</Plugin>",
          "<Plugin write_graphite>",
          "  <Node \"chronix\">",
          "    Host \"127.0.0.1\"",
          "    Port \"" + server.graphiteTcpPort() + "\"",
          "    Protocol \"tcp\"",
          "    Prefix \"graphite.\"",
          "  </Node>",
          "</Plugin>",
          ""));
      Process collectd = new ProcessBuilder(COLLECTD.toString(), "-f", "-C", config.toString())
          .redirectErrorStream(true).redirectOutput(dir.resolve("collectd.log").toFile()).start();
      try {
        Thread.sleep(4500); // four or five readings a second apart
      } finally {
        collectd.destroy(); // SIGTERM: collectd flushes its write buffers
        assertTrue(collectd.waitFor(20, TimeUnit.SECONDS), "collectd stops");
      }
      assertEquals(204, TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/flush"))
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode());

      String log = Files.readString(dir.resolve("collectd.log"));
      JsonNode viaHttp = query(server, "name:load.load.shortterm AND host:chronix-test");
      assertEquals(1, viaHttp.at("/response/numFound").asInt(), "write_http JSON: " + viaHttp + "\ncollectd log:\n" + log);
      assertTrue(viaHttp.at("/response/docs/0/count").asInt() >= 2, viaHttp.toString());
      JsonNode memory = query(server, "name:memory.memory.used AND host:chronix-test");
      assertEquals(1, memory.at("/response/numFound").asInt(), memory.toString());
      assertTrue(memory.at("/response/docs/0/count").asInt() >= 2);

      JsonNode viaGraphite = query(server, "name:graphite.chronix-test.load.load.shortterm");
      assertEquals(1, viaGraphite.at("/response/numFound").asInt(), "write_graphite: " + viaGraphite + "\ncollectd log:\n" + log);
      assertTrue(viaGraphite.at("/response/docs/0/count").asInt() >= 2, viaGraphite.toString());
    }
  }

  private static JsonNode query(ChronixServer server, String q) throws Exception {
    HttpResponse<String> response = TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(
        server.solrUrl() + "/chronix/query?wt=json&cj=name,type,host&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return new ObjectMapper().readTree(response.body());
  }
}
