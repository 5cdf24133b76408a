package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.chronix.benchmarks.VictoriaMetricsProcess;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving data between VictoriaMetrics (its Debian package, a real server) and us in both
 * directions with the export and import endpoints both sides have: our export goes into
 * VictoriaMetrics, its export into a fresh store of ours, and our export of that equals the
 * original bit for bit.
 */
class VictoriaMetricsTransferTest {

  private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()).build();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String ALL = "{__name__=~\"moved_.*\"}";
  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  @Test
  void seriesGoToVictoriaMetricsAndBackUnchanged() throws Exception {
    String original = series(new Random(3));
    String binary = VictoriaMetricsProcess.install();
    Path vmLog = dir.resolve("vm.log");
    try (ChronixServer first = server("first");
        ChronixServer second = server("second");
        VictoriaMetricsProcess vm = VictoriaMetricsProcess.start(binary, dir.resolve("vm"), vmLog,
            "-search.latencyOffset=0s", "-dedup.minScrapeInterval=0s")) {
      assertEquals(204, post(first.baseUrl() + "/api/v1/import", original));
      String ours = get(first.baseUrl() + "/api/v1/export?match[]=" + enc(ALL));

      assertEquals(204, post(vm.base() + "/api/v1/import", ours));
      get(vm.base() + "/internal/force_flush");
      String theirs = get(vm.base() + "/api/v1/export?match[]=" + enc(ALL));
      assertSame(canonical(original), canonical(theirs), "VictoriaMetrics holds what we exported");

      assertEquals(204, post(second.baseUrl() + "/api/v1/import", theirs));
      assertSame(canonical(original), canonical(get(second.baseUrl() + "/api/v1/export?match[]=" + enc(ALL))),
          "back from VictoriaMetrics, bit for bit");
    } catch (AssertionError | RuntimeException e) {
      if (Files.exists(vmLog)) {
        VictoriaMetricsProcess.printTail(vmLog);
      }
      throw e;
    }
  }

  private ChronixServer server(String name) throws Exception {
    return new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.resolve(name).toString())).start();
  }

  /**
   * Values as monitoring produces them: counters, percentages, loads, byte sizes, one kind a
   * series. Not arbitrary bit patterns: VictoriaMetrics keeps values as decimals of limited
   * precision with an exponent shared by a block, so a value of more than 15 significant digits, a
   * tiny one, or a small one next to huge ones comes back changed. Our own round trip is tested
   * with every bit pattern (ExportImportTest).
   */
  private static String series(Random random) {
    StringBuilder lines = new StringBuilder();
    for (int s = 0; s < 30; s++) {
      lines.append("{\"metric\":{\"__name__\":\"moved_").append(s).append("\",\"host\":\"h").append(s % 4)
          .append("\"},\"values\":[");
      int n = 50;
      for (int i = 0; i < n; i++) {
        double v = switch (s % 4) { // one kind a series: VictoriaMetrics shares an exponent across a block
          case 0 -> random.nextInt(1_000_000_000); // counters
          case 1 -> random.nextInt(10_000) / 100.0; // percentages
          case 2 -> random.nextInt(1_000_000) / 1e4; // loads, seconds
          default -> (random.nextLong() >>> 34) * 1024.0; // bytes, up to a terabyte
        };
        lines.append(i > 0 ? "," : "").append(v);
      }
      lines.append("],\"timestamps\":[");
      for (int i = 0; i < n; i++) {
        lines.append(i > 0 ? "," : "").append(T0 + i * 15_000L);
      }
      lines.append("]}\n");
    }
    return lines.toString();
  }

  private static TreeMap<String, TreeMap<Long, Long>> canonical(String lines) throws Exception {
    TreeMap<String, TreeMap<Long, Long>> all = new TreeMap<>();
    for (String line : lines.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode series = JSON.readTree(line);
      TreeMap<String, String> labels = new TreeMap<>();
      series.get("metric").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      TreeMap<Long, Long> points = all.computeIfAbsent(labels.toString(), k -> new TreeMap<>());
      for (int i = 0; i < series.get("values").size(); i++) {
        points.put(series.get("timestamps").get(i).asLong(),
            Double.doubleToRawLongBits(series.get("values").get(i).asDouble()));
      }
    }
    return all;
  }

  /** Equal, or a failure naming the first differences as values. */
  private static void assertSame(TreeMap<String, TreeMap<Long, Long>> expected,
      TreeMap<String, TreeMap<Long, Long>> actual, String what) {
    if (expected.equals(actual)) {
      return;
    }
    StringBuilder differences = new StringBuilder();
    int shown = 0;
    for (String series : expected.keySet()) {
      TreeMap<Long, Long> want = expected.get(series);
      TreeMap<Long, Long> got = actual.getOrDefault(series, new TreeMap<>());
      for (Long t : want.keySet()) {
        if (!want.get(t).equals(got.get(t)) && shown++ < 10) {
          differences.append('\n').append(series).append(" @").append(t).append(": ")
              .append(Double.longBitsToDouble(want.get(t))).append(" -> ")
              .append(got.containsKey(t) ? Double.longBitsToDouble(got.get(t)) : "missing");
        }
      }
    }
    throw new AssertionError(what + ": " + expected.size() + " series expected, " + actual.size() + " found; "
        + shown + " points differ, first:" + differences);
  }

  private static int post(String url, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertTrue(response.statusCode() < 300, url + " answered " + response.statusCode() + ": " + response.body());
    return response.statusCode();
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), url + ": " + response.body());
    return response.body();
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
