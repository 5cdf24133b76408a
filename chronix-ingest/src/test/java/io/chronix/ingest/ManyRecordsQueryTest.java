package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.series.Points;
import io.chronix.ingest.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries that read many records at once: their stored fields are read block by block through the
 * codec's sequential reader, few matches one by one; both must give every record's fields and
 * points exactly (the records are small, so hundreds share a compressed block).
 */
class ManyRecordsQueryTest {

  private static final int SERIES = 400;
  private static final int POINTS = 5;
  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dataDir;

  @Test
  void denseAndSparseReadsGiveEveryRecordExactly() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < SERIES; s++) {
        for (int i = 0; i < POINTS; i++) {
          lines.append("many,n=").append(s).append(" value=").append(s * 10 + i).append(' ').append(T0 + i * 1000L)
              .append('\n');
        }
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

      String range = " AND start:" + T0 + " AND end:" + (T0 + 10_000);
      JsonNode all = TestHttp.query(server.solrUrl(), "name:many" + range, "&cj=*&fl=n,dataAsJson");
      assertEquals(SERIES, all.at("/response/numFound").asInt());
      boolean[] seen = new boolean[SERIES];
      for (JsonNode doc : all.at("/response/docs")) {
        int s = doc.get("n").asInt();
        assertFalse(seen[s], "series " + s + " once");
        seen[s] = true;
        assertEquals(expected(s), TestHttp.pointsOf(doc), "series " + s);
      }

      JsonNode keys = TestHttp.query(server.solrUrl(), "name:many" + range, "&cj=*&chronix.keys=true");
      assertEquals(SERIES, keys.at("/response/numFound").asInt());
      assertFalse(keys.at("/response/docs/0").has("dataAsJson"));

      JsonNode one = TestHttp.query(server.solrUrl(), "name:many AND n:123" + range, "&fl=n,dataAsJson");
      assertEquals(1, one.at("/response/numFound").asInt());
      assertEquals(expected(123), TestHttp.pointsOf(one.at("/response/docs/0")));
    }
  }

  @Test
  void seriesDecodedInParallelComeBackAsEachAlone() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      int series = 12;
      int points = 6_000; // 72,000 in all: past the parallel decoding threshold; one series alone is below it
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < series; s++) {
        for (int i = 0; i < points; i++) {
          lines.append("wide,n=").append(s).append(" value=").append((s * 7 + i * 13) % 1000 / 10.0).append(' ')
              .append(T0 + i * 1000L).append('\n');
        }
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      String range = " AND start:" + T0 + " AND end:" + (T0 + points * 1000L);
      JsonNode all = TestHttp.query(server.solrUrl(), "name:wide" + range, "&cj=*&fl=n,dataAsJson");
      assertEquals(series, all.at("/response/numFound").asInt());
      for (JsonNode doc : all.at("/response/docs")) {
        JsonNode alone = TestHttp.query(server.solrUrl(), "name:wide AND n:" + doc.get("n").asText() + range,
            "&fl=n,dataAsJson").at("/response/docs/0");
        assertEquals(points, TestHttp.pointsOf(doc).size());
        assertEquals(TestHttp.pointsOf(alone), TestHttp.pointsOf(doc), "series " + doc.get("n"));
      }
    }
  }

  /**
   * Records the range cuts are decoded while they are read, a batch at a time (CutRecords): 600
   * series of 300 points, more records than a batch and more points than are decoded on one core,
   * each cut to its middle third, come back with exactly their points in range.
   */
  @Test
  void recordsTheRangeCutsDecodedInParallelBatchesKeepTheirPoints() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      int series = 600;
      int points = 300;
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < series; s++) {
        for (int i = 0; i < points; i++) {
          lines.append("cut,n=").append(s).append(" value=").append(value(s, i)).append(' ')
              .append(T0 + i * 1000L).append('\n');
        }
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      String range = " AND start:" + (T0 + 100_000) + " AND end:" + (T0 + 199_000);
      JsonNode all = TestHttp.query(server.solrUrl(), "name:cut" + range, "&cj=*&rows=1000&fl=n,dataAsJson");
      assertEquals(series, all.at("/response/numFound").asInt());
      boolean[] seen = new boolean[series];
      for (JsonNode doc : all.at("/response/docs")) {
        int s = doc.get("n").asInt();
        assertFalse(seen[s], "series " + s + " once");
        seen[s] = true;
        Points expected = new Points();
        for (int i = 100; i < 200; i++) {
          expected.add(T0 + i * 1000L, value(s, i));
        }
        assertEquals(expected, TestHttp.pointsOf(doc), "series " + s);
      }
    }
  }

  private static double value(int series, int i) {
    return (series * 7 + i * 13) % 1000 / 10.0;
  }

  private static Points expected(int series) {
    Points points = new Points();
    for (int i = 0; i < POINTS; i++) {
      points.add(T0 + i * 1000L, series * 10 + i); // milliseconds, the default precision
    }
    return points;
  }
}
