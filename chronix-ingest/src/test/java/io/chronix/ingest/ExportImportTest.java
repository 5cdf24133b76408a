package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VictoriaMetrics' JSON-lines format in and out: what is imported comes out bit for bit (labels,
 * millisecond timestamps, the exact doubles, NaN and infinities), over several pages of series,
 * buffered or written; bad lines are refused by number and store nothing of themselves.
 */
class ExportImportTest {

  private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()).build();
  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  @Test
  void whatIsImportedIsExportedBitForBit() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      String original = randomSeries(120, new Random(7));
      HttpResponse<String> imported = TestHttp.post(server.baseUrl() + "/api/v1/import", original, true);
      assertEquals(204, imported.statusCode(), imported.body());
      // buffered, then written: the same answer
      assertEquals(canonical(original), canonical(export(server, "{__name__=~\"moved_.*\"}")));
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      String written = export(server, "{__name__=~\"moved_.*\"}");
      assertEquals(canonical(original), canonical(written));
      assertEquals(120, written.lines().count(), "each series once, over several pages");

      // a time range and a narrower selector
      String one = export(server, "{__name__=\"moved_3\"}", "&start=" + (T0 + 10_000) / 1000 + "&end="
          + (T0 + 19_000) / 1000);
      JsonNode series = JSON.readTree(one.strip());
      assertEquals(10, series.get("timestamps").size(), one);
      assertEquals(T0 + 10_000, series.get("timestamps").get(0).asLong());

      // string series have no place in the format; bad requests are told why
      TestHttp.post(server.baseUrl() + "/write?precision=ms", "moved_text,host=a value=\"up\" " + T0 + "\n", false);
      assertTrue(export(server, "{__name__=\"moved_text\"}").isEmpty());
      HttpResponse<String> noMatch = TestHttp.get(server.baseUrl() + "/api/v1/export");
      assertEquals(400, noMatch.statusCode());
      assertTrue(noMatch.body().contains("no match[]"), noMatch.body());
      HttpResponse<String> badMatch = TestHttp.get(server.baseUrl() + "/api/v1/export?match[]=" + enc("{oops"));
      assertEquals(400, badMatch.statusCode(), badMatch.body());
    }
  }

  @Test
  void badLinesAreNamedAndTheGoodOnesKept() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      String body = "{\"metric\":{\"__name__\":\"good\"},\"values\":[1],\"timestamps\":[" + T0 + "]}\n"
          + "{\"metric\":{\"__name__\":\"bad\"},\"values\":[1,2],\"timestamps\":[" + T0 + "]}\n";
      HttpResponse<String> answer = TestHttp.post(server.baseUrl() + "/api/v1/import", body, false);
      assertEquals(400, answer.statusCode());
      assertTrue(answer.body().contains("line 2: 2 values but 1 timestamps"), answer.body());
      assertEquals(1, JSON.readTree(export(server, "{__name__=~\"good|bad\"}").strip()).get("values").size());
    }
  }

  /** A series on several lines (slices of a long series, VictoriaMetrics' blocks) is imported as one series. */
  @Test
  void aSeriesOnSeveralLinesIsOneSeries() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      String body = "{\"metric\":{\"__name__\":\"sliced\",\"host\":\"a\"},\"values\":[1,2],\"timestamps\":[" + T0 + ","
          + (T0 + 1000) + "]}\n{\"metric\":{\"__name__\":\"sliced\",\"host\":\"a\"},\"values\":[3],\"timestamps\":["
          + (T0 + 2000) + "]}\n";
      assertEquals(204, TestHttp.post(server.baseUrl() + "/api/v1/import", body, false).statusCode());
      String exported = export(server, "sliced").strip();
      assertEquals(1, exported.lines().count(), exported);
      assertEquals("[1,2,3]", JSON.readTree(exported).get("values").toString(), exported);
    }
  }

  private static String export(ChronixServer server, String selector) throws Exception {
    return export(server, selector, "");
  }

  private static String export(ChronixServer server, String selector, String extra) throws Exception {
    HttpResponse<String> answer = TestHttp.get(server.baseUrl() + "/api/v1/export?match[]=" + enc(selector) + extra);
    assertEquals(200, answer.statusCode(), answer.body());
    return answer.body();
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** Series of random doubles (any bit pattern but NaN payloads), the special values among them. */
  static String randomSeries(int count, Random random) {
    StringBuilder lines = new StringBuilder();
    for (int s = 0; s < count; s++) {
      lines.append("{\"metric\":{\"__name__\":\"moved_").append(s).append("\",\"host\":\"h").append(s % 5)
          .append("\",\"job\":\"j ").append(s % 3).append("\"},\"values\":[");
      int n = 20 + random.nextInt(40);
      for (int i = 0; i < n; i++) {
        double v = switch (random.nextInt(12)) {
          case 0 -> Double.NaN;
          case 1 -> Double.POSITIVE_INFINITY;
          case 2 -> -0.0;
          case 3 -> random.nextInt(1000);
          default -> Double.longBitsToDouble(random.nextLong() & 0xffefffffffffffffL);
        };
        lines.append(i > 0 ? "," : "").append(Double.isNaN(v) ? "NaN" : Double.isInfinite(v) ? "Infinity" : v);
      }
      lines.append("],\"timestamps\":[");
      for (int i = 0; i < n; i++) {
        lines.append(i > 0 ? "," : "").append(T0 + i * 1000L);
      }
      lines.append("]}\n");
    }
    return lines.toString();
  }

  /** Each series as labels -> (timestamp -> value bits), for a comparison bit for bit. */
  static TreeMap<String, TreeMap<Long, Long>> canonical(String lines) throws Exception {
    TreeMap<String, TreeMap<Long, Long>> all = new TreeMap<>();
    for (String line : lines.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode series = JSON.readTree(line);
      TreeMap<String, String> labels = new TreeMap<>();
      series.get("metric").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      TreeMap<Long, Long> points = new TreeMap<>();
      for (int i = 0; i < series.get("values").size(); i++) {
        points.put(series.get("timestamps").get(i).asLong(),
            Double.doubleToRawLongBits(series.get("values").get(i).asDouble()));
      }
      all.put(labels.toString(), points);
    }
    return all;
  }
}
