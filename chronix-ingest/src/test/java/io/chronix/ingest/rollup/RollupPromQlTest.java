package io.chronix.ingest.rollup;

import static io.chronix.ingest.rollup.TierAnswers.DAY;
import static io.chronix.ingest.rollup.TierAnswers.HOUR;
import static io.chronix.ingest.rollup.TierAnswers.T0;
import static io.chronix.ingest.rollup.TierAnswers.post;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.analysis.promql.conformance.SameMatrix;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PromQL range queries read the rollup tiers where they answer exactly and answer as the samples
 * do ({@code chronix.rollups=false}): every function the tiers answer, ranges and offsets on
 * multiples of a tier, samples on window boundaries, a series with NaN (read from its samples),
 * buffered points; and the samples where no tier answers.
 */
class RollupPromQlTest {

  private static final long MINUTE = 60_000L;
  private static final String[] FUNCTIONS = {"min_over_time", "max_over_time", "sum_over_time", "count_over_time",
      "avg_over_time", "last_over_time"};

  @TempDir Path dir;

  @Test
  void rangeQueriesReadTheTiersAndAnswerAsTheSamples() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "700").with("rollup.tiers", "5m,1h")).start()) {
      Random random = new Random(31);
      post(server, "/api/v1/import", TierAnswers.series("a", 2, random, 0) + TierAnswers.series("b", 2, random, 0)
          + TierAnswers.series("c", 2, random, 30));
      post(server, "/flush", "");
      // buffered points, one on a window's end
      post(server, "/write?precision=ms", "load,host=a value=1 " + (T0 + 2 * DAY) + "\nload,host=a value=7 "
          + (T0 + 2 * DAY + 3 * MINUTE) + "\n");
      PrometheusApiClient api = new PrometheusApiClient(server.baseUrl());

      for (String function : FUNCTIONS) {
        boolean rounding = function.equals("sum_over_time") || function.equals("avg_over_time");
        for (String range : new String[] {"5m", "1h", "3h"}) {
          for (String offset : new String[] {"", " offset 1h"}) {
            String query = function + "(load[" + range + "]" + offset + ")";
            assertSameAnswer(api, query, T0 + HOUR, T0 + 2 * DAY + HOUR, HOUR, range.equals("5m") ? "5m" : "1h",
                rounding);
            assertSameAnswer(api, query, T0 + 2 * DAY - 10 * HOUR, T0 + 2 * DAY + 10 * MINUTE, 5 * MINUTE, "5m",
                rounding);
          }
        }
      }
      assertSameAnswer(api, "load", T0, T0 + 2 * DAY + HOUR, HOUR, "1h", false);
      assertSameAnswer(api, "sum by (host) (count_over_time(load[2h]))", T0, T0 + 2 * DAY, 2 * HOUR, "1h", false);
      // no tier answers these
      assertSameAnswer(api, "max_over_time(load[1h])", T0 + 7_000, T0 + 2 * DAY, HOUR, null, false);
      assertSameAnswer(api, "max_over_time(load[1h])", T0, T0 + 2 * DAY, 90_000, null, false);
      assertSameAnswer(api, "rate(load[1h])", T0, T0 + 2 * DAY, HOUR, null, false);
    }
  }

  /** The answer with tiers equals the samples' and names the tier read (null: none read). */
  private static void assertSameAnswer(PrometheusApiClient api, String query, long start, long end, long step,
      String tier, boolean rounding) throws Exception {
    HttpResponse<String> fromTier = rangeQuery(api, query, start, end, step, true);
    HttpResponse<String> fromSamples = rangeQuery(api, query, start, end, step, false);
    assertEquals(tier, fromTier.headers().firstValue("X-Chronix-Rollup").orElse(null), query);
    assertEquals(null, fromSamples.headers().firstValue("X-Chronix-Rollup").orElse(null), query);
    QueryResult expected = PrometheusApiClient.result(fromSamples);
    SameMatrix.assertSameMatrix(expected, PrometheusApiClient.result(fromTier), query + " from " + start, rounding);
  }

  private static HttpResponse<String> rangeQuery(PrometheusApiClient api, String query, long start, long end,
      long step, boolean rollups) throws Exception {
    return api.post("/api/v1/query_range", Map.of("query", query, "start", String.valueOf(start / 1000.0),
        "end", String.valueOf(end / 1000.0), "step", String.valueOf(step / 1000.0), "chronix.rollups",
        String.valueOf(rollups)));
  }
}
