package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query whose main part is only a time range and whose series come from a selector (as the
 * PromQL API asks) selects the records the same query does with the series in its main part:
 * records are checked against the range by their doc values there, by Solr's points here.
 */
class RangeOnlyQueryTest {

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
        // on record edges (every 10 s) half of the time, anywhere the other half
        long from = T0 + (round % 2 == 0 ? random.nextInt(22) * 10_000L : random.nextInt(220_000) - 5_000);
        long to = from + (round % 2 == 0 ? random.nextInt(5) * 10_000L - 1 + random.nextInt(2) : random.nextInt(60_000));
        String host = HOSTS.get(round % HOSTS.size());
        List<Long> bySelector = timestamps(TestHttp.query(server.solrUrl(), "start:" + from + " AND end:" + to,
            "&fl=points&chronix.match=" + URLEncoder.encode("cpu{host=\"" + host + "\"}", StandardCharsets.UTF_8)));
        List<Long> byQuery = timestamps(TestHttp.query(server.solrUrl(),
            "name:cpu AND host:" + host + " AND start:" + from + " AND end:" + to, "&fl=points"));
        assertEquals(byQuery, bySelector, "host " + host + " [" + from + ", " + to + "]");
        if (!byQuery.isEmpty()) {
          nonEmpty++;
        }
      }
      assertTrue(nonEmpty > 40, "ranges holding points: " + nonEmpty);
    }
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
