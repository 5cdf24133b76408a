package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PromQL API's kept range answers through the server: a dashboard's repeated range query comes
 * from them, and every way the stored points change shows in the next answer: a late write, a
 * restore, a compaction, a delete, an update through Solr's own handlers.
 */
class RangeCacheServerTest {

  /** 2024-01-01T00:00:00Z: long before the clock, so every step may be kept. */
  private static final long T0 = 1_704_067_200_000L;
  private static final long MINUTE = 60_000;
  private static final String QUERY = "count_over_time(temp[1m])";

  @TempDir Path dataDir;

  @Test
  void answersFromKeptStepsShowEveryChangeOfThePoints(@TempDir Path backup) throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("compaction.interval", "0")
        .with("solr.openAdminHandlers", "true")).start()) {
      PrometheusApiClient api = new PrometheusApiClient(server.baseUrl());
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i <= 120; i++) { // 20 minutes, a point every 10 s: six in each minute's window
        lines.append("temp,host=a value=").append(i).append(' ').append(T0 + i * 10_000L).append('\n');
      }
      write(server, lines.toString());
      flush(server);
      assertEquals(200, TestHttp.post(server.baseUrl() + "/admin/backup?dir=" + backup, "", false).statusCode());
      assertEquals(6.0, counts(api).get(T0 + 10 * MINUTE));
      assertEquals(6.0, counts(api).get(T0 + 10 * MINUTE));
      assertEquals(1L, answers(server).get("kept"), "asked again: from the kept steps");
      String noCache = TestHttp.get(server.baseUrl() + "/api/v1/query_range?query="
          + java.net.URLEncoder.encode(QUERY, java.nio.charset.StandardCharsets.UTF_8) + "&start=" + T0 / 1000
          + "&end=" + (T0 + 20 * MINUTE) / 1000 + "&step=60&nocache=1").body();
      assertTrue(noCache.contains("[" + (T0 + 10 * MINUTE) / 1000 + ",\"6\"]"), noCache);
      assertEquals(Map.of("evaluated", 1L, "kept", 1L, "partly", 0L), answers(server),
          "nocache=1, VictoriaMetrics' switch: evaluated without the kept steps");
      assertEquals(200, TestHttp.get(server.solrUrl() + "/chronix/admin/ping").statusCode());
      counts(api);
      assertEquals(2L, answers(server).get("kept"), "a health check on Solr's ping changes nothing");

      write(server, "temp,host=a value=1000 " + (T0 + 10 * MINUTE - 5_000) + "\n"); // late, between two points
      Map<Long, Double> late = counts(api);
      assertEquals(7.0, late.get(T0 + 10 * MINUTE), "the late point counts");
      assertEquals(6.0, late.get(T0 + 9 * MINUTE));
      assertEquals(6.0, late.get(T0 + 11 * MINUTE));
      assertEquals(1L, answers(server).get("partly"), "the steps before it stayed kept");
      assertEquals(7.0, counts(api).get(T0 + 10 * MINUTE));
      assertEquals(3L, answers(server).get("kept"));

      assertEquals(200, TestHttp.post(server.baseUrl() + "/admin/restore?dir=" + backup, "", false).statusCode());
      assertEquals(6.0, counts(api).get(T0 + 10 * MINUTE), "restored from before the late point");
      write(server, "temp,host=a value=1000 " + (T0 + 10 * MINUTE - 5_000) + "\n");
      assertEquals(7.0, counts(api).get(T0 + 10 * MINUTE));

      flush(server); // the late point now a small record of its own: compaction merges it
      counts(api);
      assertEquals(200, TestHttp.post(server.baseUrl() + "/compact", "", false).statusCode());
      assertEquals(7.0, counts(api).get(T0 + 10 * MINUTE), "after the compaction");

      assertEquals(200, TestHttp.post(server.baseUrl() + "/api/v1/admin/tsdb/delete_series?match[]=temp&start="
          + (T0 + 15 * MINUTE) / 1000 + "&end=" + (T0 + 20 * MINUTE) / 1000, "", false).statusCode());
      Map<Long, Double> deleted = counts(api);
      assertEquals(6.0, deleted.get(T0 + 14 * MINUTE));
      assertEquals(null, deleted.get(T0 + 16 * MINUTE), "deleted points are gone");

      // Solr's own update handler, open here: the server learns of it from the request
      assertEquals(200, TestHttp.post(server.solrUrl() + "/chronix/update?commit=true",
          "{\"delete\":{\"query\":\"*:*\"}}", false, "application/json").statusCode());
      assertEquals(Map.of(), counts(api), "every record deleted through Solr");
    }
  }

  @Test
  void keptOnlyWhereTheServerSeesEveryChange() {
    ServerConfig embedded = ServerConfig.defaults();
    assertEquals(Runtime.getRuntime().maxMemory() / 32, embedded.promqlCacheBytes());
    assertEquals(0, embedded.with("promql.cacheBytes", "0").promqlCacheBytes());
    assertEquals(0, embedded.with("solr.url", "http://127.0.0.1:1/solr").promqlCacheBytes(),
        "other servers change an external Solr's records");
    assertEquals(0, embedded.with("semantic.rules", "cpu_* -> digits=3").promqlCacheBytes(),
        "lossy rules store other points than queries saw buffered");
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> embedded.with("solr.zkHost", "127.0.0.1:2181").with("promql.cacheBytes", "1000000").promqlCacheBytes());
    assertTrue(refused.getMessage().contains("SolrCloud"), refused.getMessage());
  }

  private static Map<Long, Double> counts(PrometheusApiClient api) throws Exception {
    QueryResult answer = api.range(QUERY, T0, T0 + 20 * MINUTE, MINUTE);
    Map<Long, Double> counts = new TreeMap<>();
    for (QueryResult.Series series : ((QueryResult.Matrix) answer.data()).series()) {
      for (int i = 0; i < series.size(); i++) {
        counts.put(series.timestamps()[i], series.values()[i]);
      }
    }
    return counts;
  }

  /** chronix_promql_range_answers by where they came from. */
  private static Map<String, Long> answers(ChronixServer server) throws Exception {
    String metrics = TestHttp.get(server.baseUrl() + "/metrics").body();
    Matcher m = Pattern.compile("chronix_promql_range_answers_total\\{from=\"(\\w+)\"} ([0-9.]+)").matcher(metrics);
    Map<String, Long> answers = new TreeMap<>();
    while (m.find()) {
      answers.put(m.group(1), (long) Double.parseDouble(m.group(2)));
    }
    return answers;
  }

  private static void write(ChronixServer server, String lines) throws Exception {
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines, false).statusCode());
  }

  private static void flush(ChronixServer server) throws Exception {
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
  }
}
