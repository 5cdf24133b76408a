package io.chronix.ingest.rollup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.rollup.BucketStats;
import io.chronix.core.rollup.RollupBlob;
import io.chronix.core.series.Points;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every record written gets its rollup records, one per tier, in the rollup core. */
class RollupStoreTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path dir;

  @Test
  void eachRecordHasItsStatisticsPerTier() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("chunk.maxPoints", "1000").with("rollup.tiers", "5m,1h")
        .with("solr.openAdminHandlers", "true")).start();
        Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      StringBuilder lines = new StringBuilder();
      Points points = new Points();
      for (int i = 0; i < 2500; i++) { // 2500 points 10 s apart: records of 1000, 1000 and 500
        double value = (i * 7919) % 1000 / 4.0;
        points.add((T0 + i * 10_000L) * 1_000_000L, value);
        lines.append("load,host=a value=").append(value).append(' ').append(T0 + i * 10_000L).append('\n');
      }
      post(server, "/write?precision=ms", lines.toString());
      post(server, "/flush", "");
      solr.commit("chronix_rollups");
      SolrDocumentList rollups = solr.query("chronix_rollups", new SolrQuery("name:load").setRows(100)
          .setSort("start", SolrQuery.ORDER.asc).addSort("_tier", SolrQuery.ORDER.asc)).getResults();
      assertEquals(6, rollups.size(), "three records, two tiers");
      List<SolrDocument> records = solr.query("chronix", new SolrQuery("name:load").setRows(10)
          .setSort("start", SolrQuery.ORDER.asc)).getResults();
      for (int r = 0; r < 3; r++) {
        Points slice = points.slice(r * 1000, Math.min(2500, (r + 1) * 1000));
        for (int t = 0; t < 2; t++) {
          SolrDocument rollup = rollups.get(r * 2 + t);
          String tier = (String) rollup.getFirstValue("_tier");
          Duration interval = tier.equals("5m") ? Duration.ofMinutes(5) : Duration.ofHours(1);
          assertEquals(records.get(r).getFirstValue("id") + "~" + tier, rollup.getFirstValue("id"));
          assertEquals("a", rollup.getFirstValue("host"), "the record's fields: the same queries select it");
          BucketStats expected = BucketStats.of(slice, interval.toNanos());
          BucketStats stored = RollupBlob.decode((byte[]) rollup.getFirstValue("data")).intervals();
          assertEquals(expected, stored);
        }
      }
      assertEquals(0, solr.query("chronix", new SolrQuery("_tier:*").setRows(0)).getResults().getNumFound(),
          "no rollup record among the records");
    }
  }

  @Test
  void tiersMustGrowByMultiples() {
    assertEquals(List.of(Duration.ofMinutes(5), Duration.ofHours(1)), RollupTiers.parse("5m, 1h").intervals());
    assertTrue(RollupTiers.parse("").isEmpty());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RollupTiers.parse("5m,7m")).getMessage()
        .contains("must be a multiple of PT5M"));
    assertEquals("5m", RollupTiers.label(Duration.ofMinutes(5)));
    assertEquals("1h", RollupTiers.label(Duration.ofHours(1)));
    assertEquals("1d", RollupTiers.label(Duration.ofDays(1)));
    assertEquals("90s", RollupTiers.label(Duration.ofSeconds(90)));
  }

  private static void post(ChronixServer server, String path, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(204, response.statusCode(), path + ": " + response.body());
  }
}
