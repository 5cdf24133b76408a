package io.chronix.ingest.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.ingest.ChronixServer;
import java.nio.file.Path;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction reads small records page by page and merges at most a group of them at once: with
 * pages of 2 ids and groups of 3 records, three series of 7 small records each still end up as one
 * record per series, every point kept, group boundaries inside a series and page boundaries across
 * series included.
 */
class CompactorPagingTest {

  @TempDir Path dataDir;

  @Test
  void smallPagesAndGroupsCompactEverySeriesCompletely() throws Exception {
    try (ChronixServer server = CompactionServer.start(dataDir);
        Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      for (int flush = 0; flush < 7; flush++) {
        StringBuilder lines = new StringBuilder();
        for (String host : new String[] {"a", "b", "c"}) {
          for (int i = 0; i < 5; i++) {
            lines.append("paged,host=").append(host).append(" value=").append(flush * 5 + i).append(' ')
                .append(1_000_000L + flush * 5 + i).append('\n');
          }
        }
        CompactionServer.writeRecords(server, "s", lines.toString());
      }
      assertEquals(21, records(solr));

      Compactor compactor = new Compactor(solr, "chronix", 100, ChunkCodec.lossless(), new Compactor.Sizes(2, 2, 3, 2, Compactor.Sizes.DEFAULT.walked()));
      Compactor.Result first = compactor.compact();
      assertEquals(3, first.series(), "three series, each counted once however many groups");
      assertEquals(18, first.recordsRead(), "two groups of three per series; the seventh waits");
      assertEquals(9, records(solr), "per series: two merged groups and the seventh record");
      compactor.compact();
      assertEquals(3, records(solr), "the next run merges what the groups left");
      assertEquals(105, points(solr), "every point kept once");
    }
  }

  private static long records(Http2SolrClient solr) throws Exception {
    return solr.query("chronix", new SolrQuery("name:paged").setRows(0)).getResults().getNumFound();
  }

  private static long points(Http2SolrClient solr) throws Exception {
    long sum = 0;
    for (var document : solr.query("chronix", new SolrQuery("name:paged").setFields("count").setRows(100)).getResults()) {
      sum += ((Number) document.getFirstValue("count")).longValue();
    }
    return sum;
  }
}
