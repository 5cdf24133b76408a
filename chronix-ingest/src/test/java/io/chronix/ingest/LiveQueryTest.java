package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.series.Points;
import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Series queries on the embedded node see points still in the server's buffers: nothing here
 * flushes unless a test says so (chunk.maxAge is an hour, no buffer fills up).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveQueryTest {

  private static final long T0 = 1_700_000_000_000_000_000L; // ns
  private static final long SECOND = 1_000_000_000L;

  /** Removed by JUnit after the class (and the servers and clusters its @AfterAll closes). */
  @TempDir
  static Path dataDir;
  private ChronixServer server;

  @BeforeAll
  void start() throws Exception {
    server = new ChronixServer(config(dataDir)).start();
  }

  /** Solr's update handler open: one test uses the node as another server's Solr. */
  private static ServerConfig config(Path dataDir) {
    return ServerConfig.defaults().withEphemeralPorts().with("solr.openAdminHandlers", "true").with("data.dir", dataDir.toString()).with("chunk.maxAge", "1h");
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private void write(String lines) throws Exception {
    HttpResponse<String> response = TestHttp.post(server.baseUrl() + "/write", lines, false);
    assertEquals(204, response.statusCode(), response.body());
  }

  private void flush() throws Exception {
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
  }

  private JsonNode query(String q, String extra) throws Exception {
    return TestHttp.query(server.solrUrl(), q, extra);
  }

  private JsonNode pointsQuery(String q) throws Exception {
    return query(q, "&fl=dataAsJson,name,host&precision=ns");
  }

  private static Points points(long... secondsAndValues) {
    Points points = new Points();
    for (int i = 0; i < secondsAndValues.length; i += 2) {
      points.add(T0 + secondsAndValues[i] * SECOND, secondsAndValues[i + 1]);
    }
    return points;
  }

  private static String line(String series, double value, long second) {
    return series + " value=" + value + " " + (T0 + second * SECOND) + "\n";
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @Test
  void bufferedPointsAreAnsweredWithoutAFlush() throws Exception {
    write(line("live_plain,host=a", 3, 2) + line("live_plain,host=a", 1, 0) + line("live_plain,host=a", 2, 1)
        + line("live_plain,host=a", 22, 1));
    assertTrue(server.buffers().bufferedPoints() >= 4, "nothing written to Solr yet");
    JsonNode response = pointsQuery("name:live_plain");
    assertEquals(1, response.at("/response/numFound").asInt(), response.toString());
    JsonNode doc = response.at("/response/docs/0");
    assertEquals(points(0, 1, 1, 22, 2, 3), TestHttp.pointsOf(doc), "sorted, the later of two equal timestamps wins");
    assertEquals("a", doc.get("host").asText());
    JsonNode records = TestHttp.JSON.readTree(
        TestHttp.get(server.solrUrl() + "/chronix/select?wt=json&q=name:live_plain").body());
    assertEquals(0, records.at("/response/numFound").asInt(-1), "no record yet: plain Solr queries see none");
  }

  @Test
  void bufferedPointsJoinStoredOnesAndWinSharedTimestamps() throws Exception {
    write(line("live_merge,host=a", 1, 0) + line("live_merge,host=a", 2, 1) + line("live_merge,host=a", 3, 2));
    flush();
    write(line("live_merge,host=a", 30, 2) + line("live_merge,host=a", 4, 3));
    JsonNode response = pointsQuery("name:live_merge");
    assertEquals(1, response.at("/response/numFound").asInt(), response.toString());
    assertEquals(points(0, 1, 1, 2, 2, 30, 3, 4), TestHttp.pointsOf(response.at("/response/docs/0")));
    assertEquals(4, query("name:live_merge", "").at("/response/docs/0/count").asInt());
  }

  @Test
  void attributeQueriesAndFiltersSelectBufferedSeries() throws Exception {
    write(line("live_hosts,host=a,dc=x", 1, 0) + line("live_hosts,host=b,dc=x", 2, 1)
        + line("live_hosts,host=b,dc=x", 3, 2));
    JsonNode onlyA = pointsQuery("name:live_hosts AND host:a");
    assertEquals(points(0, 1), TestHttp.pointsOf(onlyA.at("/response/docs/0")), "host b's points stay out");
    assertEquals("a", onlyA.at("/response/docs/0/host").asText());

    JsonNode negativeFilter = query("name:live_hosts", "&fl=dataAsJson,host&precision=ns&fq=" + enc("-host:a"));
    assertEquals(points(1, 2, 2, 3), TestHttp.pointsOf(negativeFilter.at("/response/docs/0")), negativeFilter.toString());

    JsonNode perHost = query("name:live_hosts AND dc:x", "&cj=name,host&fl=host");
    assertEquals(2, perHost.at("/response/numFound").asInt(), perHost.toString());
    assertEquals("a", perHost.at("/response/docs/0/host").asText());
    assertEquals("b", perHost.at("/response/docs/1/host").asText());

    JsonNode either = pointsQuery("name:live_hosts AND (host:a OR host:b)");
    assertEquals(points(0, 1, 1, 2, 2, 3), TestHttp.pointsOf(either.at("/response/docs/0")), "optional clauses demand nothing");

    assertEquals(0, query("name:live_hosts AND host:c", "").at("/response/numFound").asInt());
    assertEquals(0, query("name:live_hosts AND dc:y", "").at("/response/numFound").asInt());
  }

  @Test
  void aNameThatMatchesNothingReturnsNothing() throws Exception {
    write(line("live_named", 1, 0));
    assertEquals(0, query("name:live_unnamed", "").at("/response/numFound").asInt());
    assertEquals(0, query("name:live_named AND type:histogram", "").at("/response/numFound").asInt());
    assertEquals(1, query("name:live_nam*", "").at("/response/numFound").asInt(), "wildcards run on buffers too");
  }

  @Test
  void timeRangesSelectAndClipBufferedPoints() throws Exception {
    write(line("live_range", 1, 0) + line("live_range", 2, 1) + line("live_range", 3, 2) + line("live_range", 4, 3));
    flush();
    write(line("live_range", 5, 4) + line("live_range", 6, 5) + line("live_range", 7, 6));
    long ms = T0 / 1_000_000;
    JsonNode clipped = pointsQuery("name:live_range AND start:" + (ms + 2000) + " AND end:" + (ms + 4999));
    assertEquals(points(2, 3, 3, 4, 4, 5), TestHttp.pointsOf(clipped.at("/response/docs/0")), "stored and buffered, clipped");

    JsonNode bufferedOnly = pointsQuery("name:live_range AND start:" + (ms + 5000));
    assertEquals(points(5, 6, 6, 7), TestHttp.pointsOf(bufferedOnly.at("/response/docs/0")), "no stored record in range");

    assertEquals(0, query("name:live_range AND start:" + (ms + 7000), "").at("/response/numFound").asInt(),
        "after every point");
  }

  @Test
  void recordStatisticsOfBufferedPointsAreQueryable() throws Exception {
    write(line("live_stats,host=low", 1, 0) + line("live_stats,host=low", 2, 1)
        + line("live_stats,host=high", 1, 0) + line("live_stats,host=high", 50, 1));
    JsonNode high = query("name:live_stats AND max:[10 TO *]", "&fl=host");
    assertEquals(1, high.at("/response/numFound").asInt(), high.toString());
    assertEquals("high", high.at("/response/docs/0/host").asText(), "the low series' buffer never reaches 10");
    assertEquals(2, query("name:live_stats AND count:2", "&cj=name,host").at("/response/numFound").asInt());
  }

  @Test
  void functionsRunOverStoredAndBufferedPoints() throws Exception {
    write(line("live_functions", 1, 0) + line("live_functions", 8, 1) + line("live_functions", 3, 2));
    flush();
    write(line("live_functions", 10, 3) + line("live_functions", 2, 4));
    JsonNode response = query("name:live_functions", "&cf=" + enc("metric{count;max}"));
    JsonNode functions = response.at("/response/docs/0/functions");
    assertEquals(5, functions.get(0).get("value").asInt(), response.toString());
    assertEquals(10.0, functions.get(1).get("value").asDouble(), response.toString());
  }

  @Test
  void rowsZeroCountsSeriesThatAreOnlyBuffered() throws Exception {
    write(line("live_count_1", 1, 0) + line("live_count_2", 1, 0) + line("live_count_3,host=z", 1, 0));
    JsonNode counted = query("name:live_count_*", "&rows=0");
    assertEquals(3, counted.at("/response/numFound").asInt(), counted.toString());
    assertEquals(0, counted.at("/response/docs").size());
  }

  @Test
  void aServerWithAnExternalSolrAddsNothing(@TempDir Path otherDir) throws Exception {
    try (ChronixServer front = new ChronixServer(config(otherDir).with("solr.url", server.solrUrl())).start()) {
      HttpResponse<String> written = TestHttp.post(front.baseUrl() + "/write", line("live_front", 1, 0), false);
      assertEquals(204, written.statusCode(), written.body());
      write(line("live_front_own", 1, 0));
      assertEquals(0, query("name:live_front", "").at("/response/numFound").asInt(),
          "the front server's buffers are in its own process as far as Solr knows");
      assertEquals(1, query("name:live_front_own", "").at("/response/numFound").asInt(),
          "the embedded node's own server still answers");
    }
  }
}
