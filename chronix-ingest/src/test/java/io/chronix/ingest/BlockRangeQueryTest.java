package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranges that cut a record of many blocks (the blob decodes only the blocks a range reaches):
 * points, maximum and count as the points written say, whichever blocks a range starts and ends
 * in, between points and exactly on them.
 */
class BlockRangeQueryTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final int POINTS = 5_000;

  @TempDir Path dataDir;

  @Test
  void rangesInsideARecordAnswerAsItsPoints() throws Exception {
    Random random = new Random(5);
    long[] times = new long[POINTS];
    double[] values = new double[POINTS];
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      StringBuilder lines = new StringBuilder();
      long t = T0;
      for (int i = 0; i < POINTS; i++) {
        t += 500 + random.nextInt(1000); // milliseconds, irregular
        times[i] = t;
        values[i] = Math.round(random.nextGaussian() * 1000) / 10.0;
        lines.append("blocks,host=a value=").append(values[i]).append(' ').append(t).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      assertEquals(1, TestHttp.query(server.solrUrl(), "name:blocks", "&fl=name").at("/response/numFound").asInt(),
          "one record of " + POINTS + " points");

      for (int round = 0; round < 40; round++) {
        int a = random.nextInt(POINTS);
        int b = a + random.nextInt(Math.min(1200, POINTS - a));
        // on the points themselves half of the time, between them the other half
        long from = round % 2 == 0 ? times[a] : times[a] - 1;
        long to = round % 2 == 0 ? times[b] : times[b] + 1;
        assertRange(server, times, values, from, to);
      }
      assertRange(server, times, values, T0 - 10_000, times[0]); // before the record, to its first point
      assertRange(server, times, values, times[POINTS - 1], times[POINTS - 1] + 10_000);
    }
  }

  private static void assertRange(ChronixServer server, long[] times, double[] values, long from, long to)
      throws Exception {
    String q = "name:blocks AND start:" + from + " AND end:" + to;
    int count = 0;
    double max = Double.NEGATIVE_INFINITY;
    JsonNode docs = TestHttp.query(server.solrUrl(), q, "&fl=points").at("/response/docs");
    JsonNode points = docs.path(0).path("points");
    for (int i = 0; i < times.length; i++) {
      if (times[i] >= from && times[i] <= to) {
        assertEquals(times[i], points.at("/timestamps/" + count).asLong(), "[" + from + ", " + to + "] point " + count);
        assertEquals(values[i], points.at("/values/" + count).asDouble(), "[" + from + ", " + to + "] point " + count);
        count++;
        max = Math.max(max, values[i]);
      }
    }
    assertEquals(count, points.path("timestamps").size(), "[" + from + ", " + to + "]");
    JsonNode functions = TestHttp.query(server.solrUrl(), q, "&fl=name&cf=metric%7Bmax;count%7D")
        .at("/response/docs/0/functions");
    assertEquals(max, functions.at("/0/value").asDouble(), "max in [" + from + ", " + to + "]");
    assertEquals(count, functions.at("/1/value").asInt(), "count in [" + from + ", " + to + "]");
  }
}
