package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import io.chronix.ingest.promql.PrometheusApiClient;
import io.chronix.ingest.config.ServerConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chronix.latest} (what the PromQL engine asks for an instant selector): each series' last
 * point in the range is the joined series' last point in it, from statistics, from records the
 * range cuts, from buffered points, where records overlap (a re-sent point wins) and where a value
 * is NaN. Series of one record and of many; ranges ending inside, at the end of and after them.
 * Likewise {@code chronix.steps} (a range query's instant selector): at every step the latest point
 * at or before it is the joined series'.
 */
class LatestPointQueryTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dataDir;

  @Test
  void theLatestPointIsTheJoinedSeriesLastInTheRange() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "7")).start()) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 30; i++) {
        lines.append("lat,s=many value=").append(i).append(' ').append(T0 + i * 1000L).append('\n');
        if (i < 5) {
          lines.append("lat,s=one value=").append(100 + i).append(' ').append(T0 + i * 1000L).append('\n');
        }
      }
      write(server, lines.toString());
      // NaN (and a stale marker) as some records' last values: from remote write, as line protocol has no NaN
      long[] t = new long[30];
      double[] v = new double[30];
      for (int i = 0; i < 30; i++) {
        t[i] = T0 + i * 1000L;
        v[i] = i == 13 || i == 27 ? Double.NaN : i == 20 ? Double.longBitsToDouble(0x7ff0000000000002L) : i;
      }
      assertEquals(204, new PrometheusApiClient(server.baseUrl()).remoteWrite(List.of(PrometheusApiClient.timeSeries(
          Labels.of("__name__", "lat", "s", "nan"), t, v))));
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      // re-sent points with other values: records overlapping the first ones, the later write wins
      StringBuilder again = new StringBuilder();
      for (int i = 10; i < 16; i++) {
        again.append("lat,s=many value=").append(-i).append(' ').append(T0 + i * 1000L).append('\n');
      }
      write(server, again.toString());
      // buffered only, not flushed: newer than every record
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "lat,s=buffered value=7 " + (T0 + 3_000) + "\nlat,s=one value=999 " + (T0 + 40_000) + "\n", false).statusCode());

      int compared = 0;
      for (long from = T0 - 5_000; from <= T0 + 30_000; from += 3_500) {
        for (long to = from; to <= T0 + 45_000; to += 2_500) {
          String q = "name:lat AND start:" + from + " AND end:" + to;
          JsonNode whole = TestHttp.query(server.solrUrl(), q, "&cj=*&rows=100&fl=s,dataAsJson").at("/response/docs");
          JsonNode latest = TestHttp.query(server.solrUrl(), q, "&cj=*&rows=100&fl=s,dataAsJson&chronix.latest=true")
              .at("/response/docs");
          assertEquals(whole.size(), latest.size(), q + ": " + whole + " / " + latest);
          for (int d = 0; d < whole.size(); d++) {
            assertEquals(whole.get(d).get("s"), latest.get(d).get("s"), q);
            Points all = TestHttp.pointsOf(whole.get(d));
            Points last = TestHttp.pointsOf(latest.get(d));
            assertTrue(last.size() >= 1 && last.size() <= all.size(), q + " " + latest.get(d));
            assertEquals(all.timestamp(all.size() - 1), last.timestamp(last.size() - 1), q + " " + latest.get(d));
            assertEquals(Double.doubleToLongBits(all.value(all.size() - 1)),
                Double.doubleToLongBits(last.value(last.size() - 1)), q + " " + latest.get(d));
            compared++;
          }
        }
      }
      assertTrue(compared > 300, "series compared: " + compared);
      JsonNode oneRecord = TestHttp.query(server.solrUrl(), "name:lat AND s:many AND start:" + T0 + " AND end:"
          + (T0 + 60_000), "&cj=*&fl=dataAsJson&chronix.latest=true").at("/response/docs/0");
      assertEquals(1, TestHttp.pointsOf(oneRecord).size(), "from the last record's statistics: " + oneRecord);
      assertEquals(400, TestHttp.get(server.solrUrl() + "/chronix/query?q=name:lat&cf=metric%7Bmax%7D&chronix.latest=true")
          .statusCode());

      // chronix.steps (a range query's instant selector): at every step the same latest point
      String q = "name:lat AND start:" + (T0 - 5_000) + " AND end:" + (T0 + 45_000);
      JsonNode whole = TestHttp.query(server.solrUrl(), q, "&cj=*&rows=100&fl=s,dataAsJson").at("/response/docs");
      for (long[] grid : new long[][] {{T0 - 2_000, 1_000}, {T0 + 500, 3_000}, {T0 + 7_000, 7}, {T0 + 29_000, 60_000}}) {
        JsonNode stepped = TestHttp.query(server.solrUrl(), q, "&cj=*&rows=100&fl=s,dataAsJson&chronix.steps="
            + grid[0] + "," + grid[1]).at("/response/docs");
        assertEquals(whole.size(), stepped.size(), stepped.toString());
        for (int d = 0; d < whole.size(); d++) {
          Points all = TestHttp.pointsOf(whole.get(d));
          Points some = TestHttp.pointsOf(stepped.get(d));
          assertTrue(some.size() <= all.size());
          long steps = (T0 + 45_000 - grid[0]) / grid[1] + 1;
          assertTrue(some.size() <= steps, "at most a point a step: " + some.size() + " for " + steps + " steps");
          for (long step = grid[0]; step <= T0 + 45_000; step += grid[1]) {
            int a = Points.lowerBound(all.timestampArray(), all.size(), step + 1) - 1;
            int b = Points.lowerBound(some.timestampArray(), some.size(), step + 1) - 1;
            String where = whole.get(d).get("s") + " at " + step + " of " + java.util.Arrays.toString(grid);
            assertEquals(a < 0, b < 0, where);
            if (a >= 0) {
              assertEquals(all.timestamp(a), some.timestamp(b), where);
              assertEquals(Double.doubleToLongBits(all.value(a)), Double.doubleToLongBits(some.value(b)), where);
            }
          }
        }
      }
      for (String bad : new String[] {"chronix.steps=" + T0 + ",0", "chronix.steps=" + T0,
          "chronix.steps=" + T0 + ",1000&cf=metric%7Bmax%7D"}) {
        assertEquals(400, TestHttp.get(server.solrUrl() + "/chronix/query?q=name:lat&" + bad).statusCode(), bad);
      }
    }
  }

  private static void write(ChronixServer server, String lines) throws Exception {
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines, false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
  }
}
