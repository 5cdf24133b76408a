package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting series by selector and time range: records inside the range go, records across an
 * edge are split so that no other point is lost, buffered points of the range go too, other
 * series stay untouched; bad requests change nothing.
 */
class DeleteSeriesTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final String DELETE = "/api/v1/admin/tsdb/delete_series";

  @TempDir Path dir;

  @Test
  void aRangeIsCutOutOfTheSelectedSeriesOnly() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "10")).start()) {
      // 100 points a series at seconds 0..99: records of 10 points; points 95..99 stay buffered
      write(server, 0, 95);
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      write(server, 95, 100);

      // seconds 15..42 of cpu{host="a"}: records 20-29 and 30-39 wholly, 10-19 and 40-49 split
      HttpResponse<String> cut = delete(server, "match[]=" + enc("cpu{host=\"a\"}")
          + "&start=" + (T0 + 15_000) / 1000 + "&end=" + (T0 + 42_000) / 1000);
      assertEquals(200, cut.statusCode(), cut.body());
      JsonNode result = TestHttp.JSON.readTree(cut.body());
      assertEquals(28, result.get("deletedPoints").asLong(), cut.body());
      assertEquals(2, result.get("deletedRecords").asLong(), cut.body());
      assertEquals(2, result.get("rewrittenRecords").asLong(), cut.body());
      assertEquals(72, seconds(server, "a").size());
      for (int s = 0; s < 100; s++) {
        assertEquals(s < 15 || s > 42, seconds(server, "a").contains(s), "second " + s);
      }
      assertEquals(100, seconds(server, "b").size(), "another host untouched");

      // the buffered tail, by a Solr query; to the end of time
      HttpResponse<String> tail = delete(server, "q=" + enc("name:cpu AND host:b") + "&start=" + (T0 + 90_000) / 1000);
      assertEquals(200, tail.statusCode(), tail.body());
      assertEquals(90, seconds(server, "b").size());
      assertEquals(89, (int) seconds(server, "b").get(89));

      // nothing selected, or both ways at once, or a bad selector: 400 and nothing deleted
      for (String bad : new String[] {"start=0", "q=name:cpu&match[]=cpu", "match[]=" + enc("cpu{"),
          "match[]=cpu&start=200&end=100"}) {
        HttpResponse<String> refused = delete(server, bad);
        assertEquals(400, refused.statusCode(), bad + ": " + refused.body());
      }
      assertEquals(72, seconds(server, "a").size());
      assertEquals(90, seconds(server, "b").size());
    }
  }

  private static void write(ChronixServer server, int from, int to) throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int s = from; s < to; s++) {
      for (String host : new String[] {"a", "b"}) {
        lines.append("cpu,host=").append(host).append(" value=").append(s).append(' ').append(T0 + s * 1000L)
            .append('\n');
      }
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
  }

  private static HttpResponse<String> delete(ChronixServer server, String form) throws Exception {
    return TestHttp.post(server.baseUrl() + DELETE, form, false, "application/x-www-form-urlencoded");
  }

  /** The seconds (after T0) of the series' points, read back through a series query. */
  private static java.util.List<Integer> seconds(ChronixServer server, String host) throws Exception {
    JsonNode points = TestHttp.query(server.solrUrl(), "name:cpu AND host:" + host, "&fl=points")
        .at("/response/docs/0/points");
    java.util.List<Integer> seconds = new java.util.ArrayList<>();
    for (JsonNode t : points.get("timestamps")) {
      seconds.add((int) ((t.asLong() - T0) / 1000));
    }
    for (int i = 0; i < seconds.size(); i++) {
      assertEquals((double) seconds.get(i), points.get("values").get(i).asDouble(), "values stay with their times");
    }
    return seconds;
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
