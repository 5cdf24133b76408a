package io.chronix.ingest.rollup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.chronix.ingest.rollup.TierAnswers.assertSame;
import static io.chronix.ingest.rollup.TierAnswers.post;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A downsample over a multiple of a rollup tier answers from the tier as from the raw points:
 * every aggregation, aligned and unaligned ranges, records across the range's edges, buffered
 * points; the answer says which tier it read.
 */
class RollupQueryTest {

  private static final HttpClient HTTP = TierAnswers.HTTP;
  private static final long T0 = TierAnswers.T0;
  private static final long DAY = TierAnswers.DAY;

  @TempDir Path dir;

  @Test
  void theTierAnswersAsTheRawPointsWould() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "700").with("rollup.tiers", "1m,5m,1h")).start()) {
      Random random = new Random(17);
      StringBuilder lines = new StringBuilder();
      // two days of a point every 10 to 20 s per host, some NaN (the JSON-lines import takes NaN)
      for (String host : new String[] {"a", "b"}) {
        StringBuilder values = new StringBuilder();
        StringBuilder times = new StringBuilder();
        long t = T0;
        while (t < T0 + 2 * DAY) {
          values.append(values.length() == 0 ? "" : ",")
              .append(random.nextInt(50) == 0 ? "NaN" : String.valueOf(random.nextInt(100_000) / 16.0));
          times.append(times.length() == 0 ? "" : ",").append(t);
          t += 10_000 + random.nextInt(10_000);
        }
        lines.append("{\"metric\":{\"__name__\":\"load\",\"host\":\"").append(host).append("\"},\"values\":[")
            .append(values).append("],\"timestamps\":[").append(times).append("]}\n");
      }
      post(server, "/api/v1/import", lines.toString());
      post(server, "/flush", "");
      // and a few buffered points at the end
      post(server, "/write?precision=ms", "load,host=a value=1 " + (T0 + 2 * DAY) + "\nload,host=a value=3 "
          + (T0 + 2 * DAY + 61_000) + "\n");

      String[][] ranges = {
          {"start:" + T0 + " AND end:" + (T0 + 2 * DAY + DAY / 2)},
          {"start:" + (T0 + 3_456_789) + " AND end:" + (T0 + DAY + 7_654_321)}, // unaligned edges
      };
      for (String[] range : ranges) {
        for (String agg : new String[] {"min", "max", "count", "first", "last", "sum", "avg"}) {
          for (String interval : new String[] {"5,minutes", "1,hours", "3,hours"}) {
            String cf = "metric{downsample:" + interval + "," + agg + "}";
            JsonNode tier = query(server, range[0], cf, true);
            JsonNode raw = query(server, range[0], cf, false);
            assertTrue(tier.at("/responseHeader/chronixRollup").isTextual(), cf + ": a tier answered " + tier);
            assertTrue(raw.at("/responseHeader/chronixRollup").isMissingNode(), "chronix.rollups=false reads records");
            assertSame(raw.at("/response/docs"), tier.at("/response/docs"), range[0] + " " + cf,
                agg.equals("sum") || agg.equals("avg"));
          }
        }
      }
      // a transformation after the downsample and an aggregation on top still run
      String cf = "metric{downsample:1,hours,max;scale:2;max}";
      assertSame(query(server, ranges[0][0], cf, false).at("/response/docs"),
          query(server, ranges[0][0], cf, true).at("/response/docs"), cf, false);
    }
  }

  @Test
  void tiersFollowCompactionAndDeletes() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "400").with("rollup.tiers", "5m")).start()) {
      // ten small records (flushed one by one), then compacted into full ones
      for (int batch = 0; batch < 10; batch++) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 50; i++) {
          long t = T0 + (batch * 50 + i) * 15_000L;
          lines.append("cpu,host=a value=").append((batch * 50 + i) % 97).append(' ').append(t).append('\n');
        }
        post(server, "/write?precision=ms", lines.toString());
        post(server, "/flush", "");
      }
      HttpResponse<String> compacted = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/compact"))
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(compacted.body().contains("\"recordsRead\":10"), compacted.body());
      post(server, "/flush", "");
      String range = "start:" + T0 + " AND end:" + (T0 + DAY);
      String cf = "metric{downsample:15,minutes,max}";
      JsonNode tier = TierAnswers.query(server, "cpu", range, cf, true);
      assertTrue(tier.at("/responseHeader/chronixRollup").isTextual(), "the compacted records have rollups: " + tier);
      assertSame(TierAnswers.query(server, "cpu", range, cf, false).at("/response/docs"), tier.at("/response/docs"), cf, false);

      // a deleted range: the records split, their rollups replaced
      HttpResponse<String> deleted = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
          + "/api/v1/admin/tsdb/delete_series?match[]=cpu&start=" + (T0 + 1_000_000) / 1000 + "&end="
          + (T0 + 2_000_000) / 1000)).POST(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, deleted.statusCode(), deleted.body());
      post(server, "/flush", "");
      tier = TierAnswers.query(server, "cpu", range, cf, true);
      assertTrue(tier.at("/responseHeader/chronixRollup").isTextual(), "rewritten records have rollups: " + tier);
      assertSame(TierAnswers.query(server, "cpu", range, cf, false).at("/response/docs"), tier.at("/response/docs"), cf, false);
    }
  }

  private static JsonNode query(ChronixServer server, String q, String cf, boolean rollups) throws Exception {
    return TierAnswers.query(server, "load", q, cf, rollups);
  }
}
