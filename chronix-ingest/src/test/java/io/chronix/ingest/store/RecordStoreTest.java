package io.chronix.ingest.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.Record;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records written to the embedded node in process, as SolrJ would have written them. */
class RecordStoreTest {

  @TempDir Path dataDir;

  @Test
  void theEmbeddedNodeTakesRecordsInProcessAndRefusesWhatItsSchemaRefuses() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("compaction.interval", "0")).start()) {
      // closing this client would leave the node running; the server closes the node
      EmbeddedSolrServer solr = new EmbeddedSolrServer(server.embeddedCores().orElseThrow(), "chronix");
      RecordStore store = new RecordStore(solr, "chronix");
      Points points = new Points();
      for (int i = 0; i < 250; i++) {
        points.add(1_700_000_000_000_000_000L + i * 1_000_000_000L, i * 0.5);
      }
      SeriesKey key = SeriesKey.metric("instore", Map.of("host", "a"));
      List<Record> records = new Chunker(100, ChunkCodec.lossless()).chunk(key, points);
      long[] orders = store.write(records);
      store.commit();

      List<SolrDocument> stored = solr.query("chronix", new SolrQuery("name:instore")
          .setSort("start", SolrQuery.ORDER.asc).setFields("id", "start", "host")).getResults();
      assertEquals(3, stored.size());
      for (int i = 0; i < records.size(); i++) {
        assertEquals(records.get(i).id(), stored.get(i).getFieldValue("id"));
        assertEquals("a", stored.get(i).getFirstValue("host"));
      }
      assertTrue(orders[0] < orders[1] && orders[1] < orders[2], "write orders rise");
      store.write(records); // a replayed log writes its records again: each id stays one record
      store.commit();
      assertEquals(3, solr.query("chronix", new SolrQuery("name:instore")).getResults().getNumFound());

      SolrInputDocument bad = new SolrInputDocument();
      bad.setField("id", "no-span");
      bad.setField("name", "instore");
      IOException refused = assertThrows(IOException.class,
          () -> InProcessUpdates.add(solr, "chronix", List.of(bad), 1000));
      assertTrue(refused.getMessage().startsWith("Solr refused 1 records: "), refused.getMessage());
      assertTrue(refused.getMessage().contains("[doc=no-span] missing required field"), refused.getMessage());
      store.commit();
      assertEquals(3, solr.query("chronix", new SolrQuery("name:instore")).getResults().getNumFound(),
          "nothing of the refused document is stored");
    }
  }
}
