package io.chronix.ingest.rollup;

import static io.chronix.ingest.rollup.TierAnswers.DAY;
import static io.chronix.ingest.rollup.TierAnswers.HOUR;
import static io.chronix.ingest.rollup.TierAnswers.T0;
import static io.chronix.ingest.rollup.TierAnswers.assertSame;
import static io.chronix.ingest.rollup.TierAnswers.post;
import static io.chronix.ingest.rollup.TierAnswers.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chronix.analysis.promql.conformance.SameMatrix;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.lifecycle.RetentionEnforcer;
import io.chronix.ingest.lifecycle.RetentionRules;
import io.chronix.ingest.lifecycle.RollupRetention;
import io.chronix.ingest.promql.PrometheusApiClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tier kept longer than its records (rollup.retention) answers downsample queries where the
 * records are gone, as the records answered before they aged out; deletes erase its data; it goes
 * after its own retention. The clock of retention is the test's.
 */
class RollupRetentionTest {

  private static final String[] AGGREGATIONS = {"min", "max", "count", "first", "last", "sum", "avg"};

  @TempDir Path dir;

  @Test
  void aTierOutlivesItsRecordsAndAnswersForThem() throws Exception {
    ServerConfig config = ServerConfig.defaults().withEphemeralPorts().with("data.dir", dir.toString())
        .with("chunk.maxPoints", "1000").with("rollup.tiers", "5m,1h").with("rollup.retention", "1h=20d")
        .with("solr.openAdminHandlers", "true");
    try (ChronixServer server = new ChronixServer(config).start();
        Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      Random random = new Random(23);
      post(server, "/api/v1/import", TierAnswers.series("a", 4, random, 50) + TierAnswers.series("b", 4, random, 50)
          + TierAnswers.series("d", 4, random, 0));
      post(server, "/flush", "");

      // the records' answers while they are all there
      String whole = range(T0, T0 + 4 * DAY - 1);
      String alignedStart = range(T0 + DAY + 7 * HOUR, T0 + 3 * DAY + 7_654_321); // end among kept records
      String unalignedStart = range(T0 + DAY + 1_234_567, T0 + 3 * DAY + 7_654_321);
      String fromNextHour = range(T0 + DAY + HOUR, T0 + 3 * DAY + 7_654_321);
      Map<String, JsonNode> before = new HashMap<>();
      for (String range : new String[] {whole, alignedStart, fromNextHour}) {
        for (String agg : AGGREGATIONS) {
          for (String interval : new String[] {"1,hours", "3,hours"}) {
            String cf = cf(interval, agg);
            before.put(range + cf, query(server, "load", range, cf, false).at("/response/docs"));
          }
        }
      }

      PrometheusApiClient api = new PrometheusApiClient(server.baseUrl());
      String promQl = "max_over_time(load{host=\"d\"}[3h])";
      QueryResult promQlBefore = PrometheusApiClient.result(api.post("/api/v1/query_range", Map.of("query", promQl,
          "start", String.valueOf(T0 / 1000), "end", String.valueOf((T0 + 4 * DAY) / 1000), "step", "3600",
          "chronix.rollups", "false")));

      // the records of the first 2.5 days age out; the 5m tier goes with them, the 1h tier stays
      AtomicLong clock = new AtomicLong(T0 + 12 * DAY + DAY / 2);
      RetentionEnforcer enforcer = new RetentionEnforcer(solr, "chronix", RetentionRules.parse("10d", ""),
          new Compactor(solr, "chronix", 1000, config.codec()), clock::get)
          .alsoIn("chronix_rollups", RollupRetention.parse("1h=20d", RollupTiers.parse("5m,1h")));
      long recordsBefore = count(solr, "chronix", "*:*");
      RetentionEnforcer.Result result = enforcer.enforce();
      assertTrue(result.records() >= 8 && result.records() < recordsBefore, "records went: " + result);
      assertEquals(result.records(), result.rollups(), "the 5m rollups of the records went with them");
      assertEquals(0, count(solr, "chronix", "end:[* TO " + (T0 + 2 * DAY + DAY / 2 - 1) + "]"));
      assertEquals(count(solr, "chronix", "*:*"), count(solr, "chronix_rollups", "_tier:5m"));
      assertEquals(recordsBefore, count(solr, "chronix_rollups", "_tier:1h"), "the 1h tier keeps them all");

      for (String agg : AGGREGATIONS) {
        boolean rounding = agg.equals("sum") || agg.equals("avg");
        for (String interval : new String[] {"1,hours", "3,hours"}) {
          String cf = cf(interval, agg);
          for (String range : new String[] {whole, alignedStart}) {
            JsonNode tier = query(server, "load", range, cf, true);
            assertEquals("1h", tier.at("/responseHeader/chronixRollup").asText(), cf + " " + tier);
            assertSame(before.get(range + cf), tier.at("/response/docs"), range + " " + cf, rounding);
          }
        }
        // an hour cut by the range's start, where only the tier is left: left out
        String cf = cf("1,hours", agg);
        assertSame(before.get(fromNextHour + cf), query(server, "load", unalignedStart, cf, true).at("/response/docs"),
            unalignedStart + " " + cf, rounding);
      }
      // 5 minutes are no multiple of the tier that outlived the records: the records answer alone
      String fiveMinutes = cf("5,minutes", "max");
      assertSame(query(server, "load", whole, fiveMinutes, false).at("/response/docs"),
          query(server, "load", whole, fiveMinutes, true).at("/response/docs"), fiveMinutes, false);

      // PromQL reads the tier's windows where the records are gone (a series without NaN: NaN could be stale markers)
      HttpResponse<String> promQlAfter = api.post("/api/v1/query_range", Map.of("query", promQl,
          "start", String.valueOf(T0 / 1000), "end", String.valueOf((T0 + 4 * DAY) / 1000), "step", "3600"));
      assertEquals("1h", promQlAfter.headers().firstValue("X-Chronix-Rollup").orElse(null), promQlAfter.body());
      SameMatrix.assertSameMatrix(promQlBefore, PrometheusApiClient.result(promQlAfter), promQl, false);

      // a delete where only the tier is left drops every hour the range touches, whole
      long from = T0 + DAY + 30 * 60_000 + 17_000;
      long to = T0 + DAY + 5 * HOUR; // the point on the hour: the hour from there goes too
      JsonNode deleted = TierAnswers.postForJson(server, "/api/v1/admin/tsdb/delete_series?match[]="
          + TierAnswers.enc("load{host=\"a\"}") + "&start=" + from / 1000.0 + "&end=" + to / 1000.0);
      assertTrue(deleted.get("rewrittenRollups").asLong() >= 1, deleted.toString());
      String cf = cf("1,hours", "count");
      JsonNode expected = without(before.get(whole + cf), "a", T0 + DAY, T0 + DAY + 6 * HOUR);
      assertSame(expected, query(server, "load", whole, cf, true).at("/response/docs"), "after the delete", false);

      // past the tier's own retention (20 days), its rollups go too, though no record is left
      clock.set(T0 + 21 * DAY + DAY / 2);
      result = enforcer.enforce();
      assertEquals(0, count(solr, "chronix", "*:*"));
      assertEquals(0, count(solr, "chronix_rollups", "_tier:1h AND end:[* TO " + (T0 + DAY + DAY / 2 - 1) + "]"));
      assertTrue(count(solr, "chronix_rollups", "_tier:1h") > 0, "the later rollups stay");
      assertEquals(0, count(solr, "chronix_rollups", "_tier:5m"));
      assertTrue(result.rollups() > 0, result.toString());
    }
  }

  @Test
  void theSettingNamesWhatIsWrong() {
    RollupTiers tiers = RollupTiers.parse("5m,1h");
    assertTrue(RollupRetention.parse("", tiers).tiers().stream().allMatch(RollupRetention.Tier::followsRecords));
    RollupRetention parsed = RollupRetention.parse("60m=2y, 5m=forever", tiers);
    assertEquals(java.time.Duration.ofDays(730), parsed.tiers().get(1).period());
    assertEquals(null, parsed.tiers().get(0).period());
    assertEquals(java.util.List.of(), parsed.followingRecords());
    assertTrue(parsed.deletesOnItsOwn());
    assertTrue(message(() -> RollupRetention.parse("15m=30d", tiers)).contains("15m is not one of rollup.tiers (5m,1h)"));
    assertTrue(message(() -> RollupRetention.parse("1h=soon", tiers)).contains("rollup.retention (1h) must be a duration"));
    assertTrue(message(() -> RollupRetention.parse("1h", tiers)).contains("'1h' is not tier=period"));
    assertTrue(message(() -> RollupRetention.parse("1h=0d", tiers)).contains("must be positive"));
    assertTrue(message(() -> RollupRetention.parse("1h=2y,60m=1y", tiers)).contains("named twice"));
    assertTrue(message(() -> ServerConfig.defaults().with("rollup.retention", "1h=2y").rollupRetention())
        .contains("not one of rollup.tiers (none set)"));
  }

  private static String message(org.junit.jupiter.api.function.Executable parse) {
    return assertThrows(IllegalArgumentException.class, parse).getMessage();
  }

  /** The answer without the points of a host's series in [from, to). */
  private static JsonNode without(JsonNode docs, String host, long from, long to) {
    JsonNode copy = docs.deepCopy();
    for (JsonNode doc : copy) {
      if (!doc.get("host").toString().contains(host)) {
        continue;
      }
      ArrayNode times = TierAnswers.JSON.createArrayNode();
      ArrayNode values = TierAnswers.JSON.createArrayNode();
      JsonNode points = doc.get("points");
      for (int i = 0; i < points.get("timestamps").size(); i++) {
        long t = points.get("timestamps").get(i).asLong();
        if (t < from || t >= to) {
          times.add(points.get("timestamps").get(i));
          values.add(points.get("values").get(i));
        }
      }
      assertTrue(times.size() < points.get("timestamps").size(), "the range held points of " + host);
      ((ObjectNode) points).set("timestamps", times);
      ((ObjectNode) points).set("values", values);
    }
    return copy;
  }

  private static String range(long from, long to) {
    return "start:" + from + " AND end:" + to;
  }

  private static String cf(String interval, String agg) {
    return "metric{downsample:" + interval + "," + agg + "}";
  }

  private static long count(Http2SolrClient solr, String core, String q) throws Exception {
    return solr.query(core, new SolrQuery(q).setRows(0)).getResults().getNumFound();
  }
}
