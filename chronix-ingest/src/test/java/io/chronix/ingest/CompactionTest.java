package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.chunk.Chunker;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.WriteOrderClock;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.store.RecordDocuments;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionTest {

  @TempDir Path dataDir;

  private static long storedRecords(ChronixServer server, String name) throws Exception {
    return TestHttp.JSON.readTree(TestHttp.get(server.solrUrl() + "/chronix/select?wt=json&rows=0&q=name:" + name).body())
        .at("/response/numFound").asLong();
  }

  private static long storedPoints(ChronixServer server, String name) throws Exception {
    long sum = 0;
    for (JsonNode record : TestHttp.JSON.readTree(TestHttp.get(server.solrUrl()
        + "/chronix/select?wt=json&rows=1000&fl=count&q=name:" + name).body()).at("/response/docs")) {
      sum += record.get("count").asLong();
    }
    return sum;
  }

  /** A run that rewrites records tells from their earliest point on; one that rewrites none tells nothing. */
  @Test
  void aRunTellsWhereItRewroteRecords() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("solr.openAdminHandlers", "true") // the compactor below works through Solr's update handler
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "100").with("compaction.interval", "0")).start();
        Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      for (int flush = 0; flush < 3; flush++) { // three small records of 10 points
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 10; i++) {
          lines.append("slow,host=a value=1 ").append(1_000_000L + flush * 10 + i).append('\n');
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=s", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      java.util.List<Long> told = new java.util.ArrayList<>();
      Compactor compactor = new Compactor(solr, "chronix", 100, ChunkCodec.lossless())
          .reportingTo(new io.chronix.analysis.promql.engine.PointChanges() {
            @Override
            public void changedFrom(long millis) {
              told.add(millis);
            }

            @Override
            public void changedAll() {
              told.add(Long.MIN_VALUE);
            }
          });
      assertEquals(1, compactor.compact().series());
      assertEquals(java.util.List.of(1_000_000_000L), told, "from the earliest rewritten point, in milliseconds");
      assertEquals(0, compactor.compact().series());
      assertEquals(1, told.size(), "nothing rewritten, nothing told");
    }
  }

  @Test
  void smallRecordsMergeIntoFullOnesAndDuplicatesFold() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("solr.openAdminHandlers", "true") // the test writes a duplicate record through Solr
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "100").with("compaction.interval", "0")).start()) {
      for (int flush = 0; flush < 12; flush++) { // twelve small records of 10 points
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 10; i++) {
          int n = flush * 10 + i;
          lines.append("slow,host=a value=").append(n * 0.5).append(' ').append(1_000_000L + n).append('\n');
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=s", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      // a crash between writing and deleting would leave points twice, in other chunk boundaries
      SeriesKey key = SeriesKey.metric("slow", Map.of("host", "a", SeriesOrigin.PROTOCOL, SeriesOrigin.INFLUX,
          SeriesOrigin.INFLUX_MEASUREMENT, "slow", SeriesOrigin.INFLUX_FIELD, "value"));
      Points again = new Points();
      for (int n = 5; n < 25; n++) {
        again.add((1_000_000L + n) * 1_000_000_000L, n * 0.5);
      }
      try (Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        solr.add("chronix", RecordDocuments.toDocument(new Chunker(100, ChunkCodec.lossless()).chunk(key, again).get(0),
            new WriteOrderClock().next()));
        solr.commit("chronix");
      }
      assertEquals(13, storedRecords(server, "slow"));
      assertEquals(140, storedPoints(server, "slow"));
      String before = TestHttp.query(server.solrUrl(), "name:slow", "&fl=dataAsJson&precision=ns").at("/response/docs/0/dataAsJson").asText();

      HttpResponse<String> compacted = TestHttp.post(server.baseUrl() + "/compact", "", false);
      assertEquals(200, compacted.statusCode(), compacted.body());
      assertEquals(1, TestHttp.JSON.readTree(compacted.body()).get("series").asInt());

      assertEquals(2, storedRecords(server, "slow"), "120 points in chunks of 100");
      assertEquals(120, storedPoints(server, "slow"), "duplicates folded");
      assertEquals(before, TestHttp.query(server.solrUrl(), "name:slow", "&fl=dataAsJson&precision=ns")
          .at("/response/docs/0/dataAsJson").asText(), "the series reads the same");

      HttpResponse<String> again2 = TestHttp.post(server.baseUrl() + "/compact", "", false);
      assertTrue(again2.body().contains("\"series\":0"), "nothing left to do: " + again2.body());
    }
  }
}
