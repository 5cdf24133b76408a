package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query whose main part is only a time range and whose series come from a selector (as the
 * PromQL API asks) selects the records the same query does with the series in its main part, and
 * both the points written in the range: records are checked against the range by their doc values
 * where the rest of the query selects few, by Solr's points where it selects many.
 */
class RangeOnlyQueryTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = 1_700_000_000_000L;
  /** Ten series: one series' records are a tenth of the index, few enough to be checked by doc values. */
  private static final List<String> HOSTS = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");

  @TempDir Path dir;

  @Test
  void aRangeOnlyQueryWithASelectorSelectsAsTheWholeQuery() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "10")).start()) {
      for (int flush = 0; flush < 3; flush++) { // records in several segments
        StringBuilder lines = new StringBuilder();
        for (int i = flush * 70; i < (flush + 1) * 70; i++) {
          for (String host : HOSTS) {
            lines.append("cpu,host=").append(host).append(" value=").append(i).append(' ').append(T0 + i * 1000L)
                .append('\n');
          }
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      Random random = new Random(11);
      int nonEmpty = 0;
      for (int round = 0; round < 60; round++) {
        // from a record's first point (records of 10 s), from a record's last point, or anywhere
        long from = T0 + switch (round % 3) {
          case 0 -> random.nextInt(22) * 10_000L;
          case 1 -> random.nextInt(21) * 10_000L + 9_000;
          default -> random.nextInt(220_000) - 5_000;
        };
        long to = from + (round % 3 < 2 ? Math.max(0, random.nextInt(5) * 10_000L - 1 + random.nextInt(2)) : random.nextInt(60_000));
        String host = HOSTS.get(round % HOSTS.size());
        List<Long> bySelector = timestamps(TestHttp.query(server.solrUrl(), "start:" + from + " AND end:" + to,
            "&fl=points&chronix.match=" + URLEncoder.encode("cpu{host=\"" + host + "\"}", StandardCharsets.UTF_8)));
        List<Long> byQuery = timestamps(TestHttp.query(server.solrUrl(),
            "name:cpu AND host:" + host + " AND start:" + from + " AND end:" + to, "&fl=points"));
        assertEquals(byQuery, bySelector, "host " + host + " [" + from + ", " + to + "]");
        // a tenth of the records by doc values; all ten hosts (the whole index) by Solr's points
        assertEquals(written(from, to, 1), byQuery, "host " + host + " [" + from + ", " + to + "]");
        List<Long> allHosts = timestamps(TestHttp.query(server.solrUrl(), "name:cpu AND start:" + from + " AND end:" + to,
            "&fl=points&rows=20&cj=name,host"));
        assertEquals(written(from, to, HOSTS.size()), allHosts, "all hosts [" + from + ", " + to + "]");
        if (!byQuery.isEmpty()) {
          nonEmpty++;
        }
      }
      assertTrue(nonEmpty > 40, "ranges holding points: " + nonEmpty);
    }
  }

  /**
   * A range clause that every record satisfies is left out, and one that none does answers nothing,
   * from the index's bounds alone: the hosts with records in a window are those Solr's own search
   * finds for the same range, for windows around, before, after and inside the data.
   */
  @Test
  void rangeClausesThatEveryRecordOrNoneSatisfiesSelectAsSolrDoes() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "10")).start()) {
      for (int half = 0; half < 2; half++) { // two segments: hosts a-e, then f-j
        StringBuilder lines = new StringBuilder();
        for (int h = half * 5; h < half * 5 + 5; h++) {
          for (int k = 0; k < 50; k++) { // host h from T0 + h * 100 s for 49 s
            lines.append("mem,host=").append(HOSTS.get(h)).append(" value=").append(k).append(' ')
                .append(T0 + h * 100_000L + k * 1000L).append('\n');
          }
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      long last = T0 + 9 * 100_000L + 49_000L;
      List<long[]> windows = new ArrayList<>(List.of(
          new long[] {T0 - 1_000_000, last + 1_000_000}, // around all: both clauses left out
          new long[] {T0, last}, // exactly all
          new long[] {last + 1, last + 1_000_000}, // after all: no record ends in it
          new long[] {last, last + 1_000}, // from the last point on: one record's end on the bound
          new long[] {T0 - 1_000, T0}, // up to the first point: one record's start on the bound
          new long[] {T0 - 1_000_000, T0 - 1}, // before all: no record starts in it
          new long[] {T0 + 349_000, last + 5_000_000}, // ends after every start, starts inside
          new long[] {T0 - 5_000_000, T0 + 420_000})); // starts before every end, ends inside
      Random random = new Random(17);
      for (int i = 0; i < 30; i++) {
        long from = T0 - 100_000 + random.nextInt(1_200_000);
        windows.add(new long[] {from, from + random.nextInt(random.nextBoolean() ? 2_000_000 : 200_000)});
      }
      for (long[] window : windows) {
        String range = "[" + window[0] + ", " + window[1] + "]";
        HttpResponse<String> answer = TestHttp.get(server.baseUrl() + "/api/v1/label/host/values?start="
            + seconds(window[0]) + "&end=" + seconds(window[1]));
        assertEquals(200, answer.statusCode(), range + ": " + answer.body());
        List<String> hosts = new ArrayList<>();
        JSON.readTree(answer.body()).path("data").forEach(host -> hosts.add(host.asText()));
        assertEquals(solrHosts(server, window[0], window[1]), hosts, range);
      }
    }
  }

  /** The hosts of the records Solr's standard search finds overlapping the range, sorted. */
  private static List<String> solrHosts(ChronixServer server, long from, long to) throws Exception {
    String q = URLEncoder.encode("end:[" + from + " TO *] AND start:[* TO " + to + "]", StandardCharsets.UTF_8);
    HttpResponse<String> answer = TestHttp.get(server.solrUrl() + "/chronix/select?wt=json&rows=10000&fl=host&q=" + q);
    assertEquals(200, answer.statusCode(), answer.body());
    java.util.TreeSet<String> hosts = new java.util.TreeSet<>();
    JSON.readTree(answer.body()).at("/response/docs").forEach(doc -> hosts.add(doc.path("host").asText()));
    return new ArrayList<>(hosts);
  }

  private static String seconds(long millis) {
    return java.math.BigDecimal.valueOf(millis, 3).toPlainString();
  }

  /** The timestamps written in [from, to] (one a second from T0 for 210 s), once for each of the series. */
  private static List<Long> written(long from, long to, int series) {
    List<Long> timestamps = new ArrayList<>();
    for (int s = 0; s < series; s++) {
      for (int i = 0; i < 210; i++) {
        long t = T0 + i * 1000L;
        if (t >= from && t <= to) {
          timestamps.add(t);
        }
      }
    }
    return timestamps;
  }

  private static List<Long> timestamps(JsonNode answer) {
    List<Long> timestamps = new ArrayList<>();
    for (JsonNode doc : answer.at("/response/docs")) {
      for (JsonNode t : doc.path("points").path("timestamps")) {
        timestamps.add(t.asLong());
      }
    }
    return timestamps;
  }
}
