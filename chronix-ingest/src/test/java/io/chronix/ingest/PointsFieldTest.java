package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.solr.response.ChronixJsonWriter;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fl=points}: the points as a JSON object in JSON answers (a string elsewhere), equal to
 * {@code dataAsJson}; answers are not indented unless asked. The series is written in three
 * flushes, the latest time range first, so its records are joined out of write order.
 */
class PointsFieldTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dataDir;

  @Test
  void pointsComeAsAnObjectInJsonAndAsAStringElsewhere() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      for (int part : new int[] {2, 0, 1}) {
        StringBuilder lines = new StringBuilder();
        for (int i = part * 100; i < part * 100 + 100; i++) {
          lines.append("pf,host=a value=").append(i * 0.25).append(' ').append(T0 + i * 1000L).append('\n');
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      String q = "name:pf AND start:" + T0 + " AND end:" + (T0 + 300_000);
      JsonNode answer = TestHttp.query(server.solrUrl(), q, "&fl=name,points,dataAsJson");
      JsonNode doc = answer.at("/response/docs/0");
      JsonNode points = doc.get("points");
      assertTrue(points.isObject(), "an object, not a string: " + points);
      assertEquals(TestHttp.JSON.readTree(doc.get("dataAsJson").asText()), points);
      assertEquals(300, points.get("timestamps").size());
      for (int i = 0; i < 300; i++) {
        assertEquals(T0 + i * 1000L, points.get("timestamps").get(i).asLong(), "timestamp " + i);
        assertEquals(i * 0.25, points.get("values").get(i).asDouble(), "value " + i);
      }

      String url = server.solrUrl() + "/chronix/query?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
          + "&fl=name,points";
      HttpResponse<String> plain = TestHttp.get(url);
      assertFalse(plain.body().contains("\n "), "not indented by default: " + plain.body().substring(0, 80));
      assertTrue(TestHttp.get(url + "&indent=true").body().contains("\n "), "indented on request");
      HttpResponse<String> xml = TestHttp.get(url + "&wt=xml");
      assertEquals(200, xml.statusCode());
      assertTrue(xml.body().contains("<str name=\"points\">{\"timestamps\":[" + T0 + ","), xml.body());

      // text beyond ASCII keeps its characters on the raw path (written as UTF-8 bytes)
      String text = "grün ✓ 𝄞 \\ \"q\"";
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "pfs,host=a value=\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\" " + T0 + "\n", false)
          .statusCode());
      JsonNode texts = TestHttp.query(server.solrUrl(), "name:pfs", "&fl=name,points").at("/response/docs/0/points");
      assertEquals(text, texts.at("/values/0").asText(), texts.toString());

      // the answers above came from the configset's JSON writer, with and without wt=json
      try (org.apache.solr.core.SolrCore core = server.embeddedCores().orElseThrow().getCore("chronix")) {
        assertTrue(core.getQueryResponseWriter((String) null) instanceof ChronixJsonWriter);
        assertTrue(core.getQueryResponseWriter("json") instanceof ChronixJsonWriter);
      }
    }
  }
}
