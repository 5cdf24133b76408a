package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Series equal but for their origin (one written as line protocol, one imported as JSON lines)
 * show as one series in PromQL. Where both hold a timestamp, the one the plugin orders last wins,
 * as it did when the engine read the plugin's documents in their order; the engine now reads the
 * series as objects in any order and must put such parts back in that order.
 */
class SameLabelsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = TestHttp.CLIENT;

  @TempDir Path dataDir;

  @Test
  void sharedTimestampsGoToTheSeriesThePluginOrdersLast() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("compaction.interval", "0")).start()) {
      String base = server.baseUrl();
      StringBuilder lines = new StringBuilder();
      StringBuilder imported = new StringBuilder();
      for (String host : new String[] {"a", "b", "c"}) {
        lines.append("load,host=").append(host).append(" value=1 1000\nload,host=").append(host)
            .append(" value=2 2000\n");
        imported.append("{\"metric\":{\"__name__\":\"load\",\"host\":\"").append(host)
            .append("\"},\"values\":[20,30],\"timestamps\":[2000,3000]}\n");
      }
      assertEquals(204, send(base + "/write?precision=ms", lines.toString()).statusCode());
      assertEquals(204, send(base + "/api/v1/import", imported.toString()).statusCode());
      assertEquals(204, send(base + "/flush", "").statusCode());

      // the plugin's order of the parts, as its documents come
      JsonNode docs = JSON.readTree(get(base + "/solr/chronix/query?q=" + encode("name:load AND host:b")
          + "&cj=*&fl=_protocol,points")).at("/response/docs");
      assertEquals(2, docs.size(), docs.toString());
      JsonNode last = docs.get(1).get("points");
      double expected = last.get("values").get(last.get("timestamps").get(0).asLong() == 2000 ? 0 : 1).asDouble();

      JsonNode answer = JSON.readTree(get(base + "/api/v1/query_range?query=" + encode("load{host=\"b\"}")
          + "&start=1&end=3&step=1"));
      JsonNode values = answer.at("/data/result/0/values");
      assertEquals(3, values.size(), answer.toString());
      assertEquals("1", values.get(0).get(1).asText());
      assertEquals(expected, Double.parseDouble(values.get(1).get(1).asText()), answer.toString());
      assertEquals("30", values.get(2).get(1).asText());
      JsonNode instant = JSON.readTree(get(base + "/api/v1/query?query=" + encode("load{host=\"b\"}") + "&time=2"));
      assertEquals(expected, Double.parseDouble(instant.at("/data/result/0/value/1").asText()), instant.toString());

      // the listing shows each such pair once, sorted; a value type apart makes no label either
      assertEquals(204, send(base + "/write?precision=ms", "load,host=b value=\"up\" 4000\n").statusCode());
      assertEquals(204, send(base + "/flush", "").statusCode());
      JsonNode series = JSON.readTree(get(base + "/api/v1/series?match[]=load&start=0&end=10")).get("data");
      assertEquals("[{\"__name__\":\"load\",\"host\":\"a\"},{\"__name__\":\"load\",\"host\":\"b\"},"
          + "{\"__name__\":\"load\",\"host\":\"c\"}]", series.toString());
    }
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }

  private static HttpResponse<String> send(String url, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
