package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query over more points than {@code chronix.maxDecodedPoints} answers 400 naming the limit, on
 * the Solr route and through PromQL, and the store answers narrower queries after it; a range
 * that cuts records counts their share of points, so the last minutes of many series stay within
 * a limit their whole records exceed; a page of series counts only its own.
 */
class DecodedPointsLimitTest {

  private static final long HOUR_MS = 3_600_000;

  @TempDir Path dataDir;
  private ChronixServer server;

  @BeforeEach
  void start() throws Exception {
    System.setProperty("chronix.maxDecodedPoints", "100");
    try {
      // open update handlers: a server in front of this one's node commits through them
      server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
          .with("solr.openAdminHandlers", "true")).start();
    } finally {
      System.clearProperty("chronix.maxDecodedPoints");
    }
    // three series of 60 points, a minute apart, one record each
    StringBuilder lines = new StringBuilder();
    for (String host : new String[] {"a", "b", "c"}) {
      for (int minute = 0; minute < 60; minute++) {
        lines.append("cpu,host=").append(host).append(" value=").append(minute).append(' ')
            .append(minute * 60_000L).append('\n');
      }
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void aQueryOverTheLimitIsRefusedAndNarrowerOnesAnswer() throws Exception {
    HttpResponse<String> refused = solr("name:cpu", "&fl=dataAsJson&cj=host");
    assertEquals(400, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("more than 100 points (chronix.maxDecodedPoints)"), refused.body());

    HttpResponse<String> promql = TestHttp.get(server.baseUrl() + "/api/v1/query_range?query=cpu&start=0&end=3540&step=60");
    assertEquals(422, promql.statusCode(), promql.body());
    assertTrue(promql.body().contains("more than 100 points (chronix.maxDecodedPoints)"), promql.body());

    JsonNode one = TestHttp.query(server.solrUrl(), "name:cpu AND host:b", "&fl=dataAsJson");
    assertEquals(60, TestHttp.pointsOf(one.at("/response/docs/0")).size(), "a series of 60 points");
  }

  /**
   * Every request gives its points back when it ends: with a limit of 100 points decoded at once by
   * all queries, series of 60 points can be asked again and again, on the Solr route and through
   * PromQL.
   */
  @Test
  void queriesGiveTheirPointsBack() throws Exception {
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> one = solr("name:cpu AND host:a", "&fl=dataAsJson");
      assertEquals(200, one.statusCode(), "query " + i + ": " + one.body());
      HttpResponse<String> promql = TestHttp.get(server.baseUrl() + "/api/v1/query_range?query=cpu%7Bhost%3D%22b%22%7D"
          + "&start=0&end=3540&step=60");
      assertEquals(200, promql.statusCode(), "PromQL query " + i + ": " + promql.body());
    }
  }

  /** Only a page's series are decoded: a page of one of the three series fits the limit, a page of two does not. */
  @Test
  void aPageCountsItsOwnPoints() throws Exception {
    HttpResponse<String> page = solr("name:cpu", "&fl=dataAsJson&cj=host&start=1&rows=1");
    assertEquals(200, page.statusCode(), page.body());
    JsonNode answer = TestHttp.JSON.readTree(page.body()).at("/response");
    assertEquals(3, answer.at("/numFound").asInt(), page.body());
    assertEquals(60, TestHttp.pointsOf(answer.at("/docs/0")).size(), page.body());
    assertEquals("b", TestHttp.query(server.solrUrl(), "name:cpu", "&fl=host&cj=host&start=1&rows=1")
        .at("/response/docs/0/host").asText(), "the second series in answer order");
    HttpResponse<String> two = solr("name:cpu", "&fl=dataAsJson&cj=host&rows=2");
    assertEquals(400, two.statusCode(), two.body());
    assertTrue(two.body().contains("more than 100 points (chronix.maxDecodedPoints)"), two.body());
  }

  /**
   * A page over a range inside the records: whether each series holds a point there is told from
   * its record's blocks, so only the page's series is decoded and counted (about 52 points of each
   * series lie in minutes 5 to 55; decoding all three to tell was 156, over the limit).
   */
  @Test
  void aPageInsideTheRecordsDecodesOnlyItsSeries() throws Exception {
    String inside = "name:cpu AND start:" + 5 * 60_000L + " AND end:" + 55 * 60_000L;
    HttpResponse<String> page = solr(inside, "&fl=dataAsJson,host&cj=host&start=2&rows=1");
    assertEquals(200, page.statusCode(), page.body());
    JsonNode answer = TestHttp.JSON.readTree(page.body()).at("/response");
    assertEquals(3, answer.at("/numFound").asInt(), page.body());
    assertEquals("c", answer.at("/docs/0/host").asText(), page.body());
    assertEquals(51, TestHttp.pointsOf(answer.at("/docs/0")).size(), page.body());
    HttpResponse<String> none = solr("name:cpu AND start:" + (5 * 60_000L + 1) + " AND end:" + (6 * 60_000L - 1),
        "&fl=dataAsJson,host&cj=host&rows=1");
    assertEquals(200, none.statusCode(), none.body());
    assertEquals(0, TestHttp.JSON.readTree(none.body()).at("/response/numFound").asInt(), "between two points: "
        + none.body());
    HttpResponse<String> whole = solr(inside, "&fl=dataAsJson,host&cj=host");
    assertEquals(400, whole.statusCode(), "all three series decoded: " + whole.body());
  }

  /** The last ten minutes of the three series: 3 × 11 points counted, where their records hold 180. */
  @Test
  void theLastMinutesOfRecordsCountTheirShare() throws Exception {
    HttpResponse<String> last = solr("name:cpu AND start:" + (HOUR_MS - 600_000) + " AND end:" + HOUR_MS,
        "&fl=dataAsJson&cj=host");
    assertEquals(200, last.statusCode(), last.body());
    JsonNode docs = TestHttp.JSON.readTree(last.body()).at("/response/docs");
    assertEquals(3, docs.size(), last.body());
    for (JsonNode doc : docs) {
      assertEquals(10, TestHttp.pointsOf(doc).size(), doc::toString);
    }
    HttpResponse<String> instant = TestHttp.get(server.baseUrl() + "/api/v1/query?query=cpu&time=3540");
    assertEquals(200, instant.statusCode(), instant.body());
    assertEquals(3, TestHttp.JSON.readTree(instant.body()).at("/data/result").size(), instant.body());
  }

  /**
   * Aggregations that the records' statistics answer decode nothing, so the limit does not refuse
   * them: a {@code max} over the three series (180 points) answers, paged or not, and so does one
   * over a series with 50 buffered points after its record (110 points). A series that must be
   * decoded after all (buffered points among its record's) counts its points: 110 are refused.
   */
  @Test
  void summariesCountOnlyWhatTheyDecode() throws Exception {
    for (String paging : new String[] {"", "&rows=2", "&rows=1&start=2"}) {
      HttpResponse<String> max = solr("name:cpu", "&fl=host&cj=host&cf=metric%7Bmax%7D" + paging);
      assertEquals(200, max.statusCode(), paging + ": " + max.body());
      JsonNode docs = TestHttp.JSON.readTree(max.body()).at("/response/docs");
      assertEquals(paging.isEmpty() ? 3 : paging.contains("rows=2") ? 2 : 1, docs.size(), max.body());
      for (JsonNode doc : docs) {
        assertEquals(59.0, doc.at("/functions/0/value").asDouble(), doc::toString);
      }
    }
    StringBuilder after = new StringBuilder();
    for (int minute = 60; minute < 110; minute++) {
      after.append("cpu,host=a value=").append(minute).append(' ').append(minute * 60_000L).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", after.toString(), false).statusCode());
    HttpResponse<String> withBuffered = solr("name:cpu AND host:a", "&fl=host&cj=host&cf=metric%7Bmax%7D");
    assertEquals(200, withBuffered.statusCode(), withBuffered.body());
    assertEquals(109.0, TestHttp.JSON.readTree(withBuffered.body()).at("/response/docs/0/functions/0/value").asDouble(),
        withBuffered.body());
    StringBuilder among = new StringBuilder();
    for (int minute = 0; minute < 50; minute++) {
      among.append("cpu,host=b value=").append(minute + 0.5).append(' ').append(minute * 60_000L + 30_000).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", among.toString(), false).statusCode());
    for (String paging : new String[] {"", "&rows=1&start=1"}) { // the page of host b
      HttpResponse<String> decoded = solr("name:cpu", "&fl=host&cj=host&cf=metric%7Bmax%7D" + paging);
      assertEquals(400, decoded.statusCode(), paging + ": " + decoded.body());
      assertTrue(decoded.body().contains("more than 100 points (chronix.maxDecodedPoints)"), decoded.body());
    }
    HttpResponse<String> others = solr("name:cpu AND -host:b", "&fl=host&cj=host&cf=metric%7Bmax%7D");
    assertEquals(200, others.statusCode(), others.body());
  }

  /**
   * An export asks the store for fewer series at a time while it refuses a page for its points:
   * pages of 50 series hold 180 points here, so all three series come out one page each. A series
   * with more points than the limit alone comes out in slices of time, on consecutive lines of its
   * labels; a series with its fields and one more, which the slices' filters also match, comes out
   * once on its own line.
   */
  @Test
  void anExportTakesFewerSeriesAPageUntilThePointsFit() throws Exception {
    HttpResponse<String> export = TestHttp.get(server.baseUrl() + "/api/v1/export?match[]=cpu");
    assertEquals(200, export.statusCode(), export.body());
    java.util.List<String> lines = export.body().lines().toList();
    assertEquals(3, lines.size(), export.body());
    java.util.Set<String> hosts = new java.util.HashSet<>();
    for (String line : lines) {
      JsonNode series = TestHttp.JSON.readTree(line);
      assertEquals(60, series.get("values").size(), line);
      hosts.add(series.at("/metric/host").asText());
    }
    assertEquals(java.util.Set.of("a", "b", "c"), hosts);

    StringBuilder longSeries = new StringBuilder();
    for (int second = 0; second < 250; second++) {
      longSeries.append("long_series value=").append(second).append(' ').append(second * 1_000L).append('\n');
    }
    longSeries.append("long_series,extra=x value=7 5000\n");
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", longSeries.toString(), false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    StringBuilder buffered = new StringBuilder(); // the slices find points not yet written too
    for (int second = 250; second < 260; second++) {
      buffered.append("long_series value=").append(second).append(' ').append(second * 1_000L).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", buffered.toString(), false).statusCode());
    for (String range : new String[] {"", "&start=10&end=209"}) {
      HttpResponse<String> sliced = TestHttp.get(server.baseUrl() + "/api/v1/export?match[]=long_series" + range);
      assertEquals(200, sliced.statusCode(), sliced.body());
      java.util.List<Long> timestamps = new java.util.ArrayList<>();
      int slices = 0;
      int withExtra = 0;
      for (String line : sliced.body().lines().toList()) {
        JsonNode series = TestHttp.JSON.readTree(line);
        if (series.at("/metric/extra").isMissingNode()) {
          slices++;
          series.get("timestamps").forEach(t -> timestamps.add(t.asLong()));
          assertTrue(series.get("values").size() <= 100, line);
        } else {
          withExtra++;
          assertEquals(1, series.get("values").size(), line);
        }
      }
      long first = range.isEmpty() ? 0 : 10;
      long count = range.isEmpty() ? 260 : 200;
      assertTrue(slices >= 3, "slices: " + slices + " " + range);
      assertEquals(range.isEmpty() ? 1 : 0, withExtra, "its one point lies before the range " + range);
      assertEquals(count, timestamps.size(), range);
      for (int i = 0; i < timestamps.size(); i++) {
        assertEquals((first + i) * 1_000L, timestamps.get(i), "point " + i + " in order, once " + range);
      }
    }
  }

  /**
   * Through a server whose store is reached over HTTP (the embedded node's SolrJ client is not
   * there), the export's pages are refused, halved and sliced alike: the same lines as the server
   * that reads its pages in its own process.
   */
  @Test
  void anExportThroughAClientHalvesAndSlicesAlike(@TempDir Path otherDir) throws Exception {
    StringBuilder longSeries = new StringBuilder();
    for (int second = 0; second < 250; second++) {
      longSeries.append("long_series value=").append(second * 0.5).append(' ').append(second * 1_000L).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", longSeries.toString(), false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    String all = "/api/v1/export?match[]=" + URLEncoder.encode("{__name__=~\"cpu|long_series\"}", StandardCharsets.UTF_8);
    HttpResponse<String> here = TestHttp.get(server.baseUrl() + all);
    assertEquals(200, here.statusCode(), here.body());
    assertTrue(here.body().lines().count() >= 6, "three series of cpu, long_series in slices: " + here.body());
    try (ChronixServer front = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", otherDir.toString()).with("solr.url", server.solrUrl())).start()) {
      HttpResponse<String> there = TestHttp.get(front.baseUrl() + all);
      assertEquals(200, there.statusCode(), there.body());
      assertEquals(here.body(), there.body());
    }
  }

  private HttpResponse<String> solr(String q, String extra) throws Exception {
    return TestHttp.get(server.solrUrl() + "/chronix/query?wt=json&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
        + extra);
  }
}
