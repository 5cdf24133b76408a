package io.chronix.solr.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.core.SolrCore;

/**
 * Records indexed in four segments, one commit each, a few of them replacing records of the first
 * segment (which stay there as deleted), then the given ids deleted: the index the tests of
 * range and listing reads compare with Solr's own answers over.
 */
final class SegmentedRecords {

  /** One record: its id, the segment it goes into (0-3). */
  interface Maker {
    SolrInputDocument record(String id, int segment, Random random);
  }

  private SegmentedRecords() {}

  /** As {@link #index(EmbeddedSolrServer, int, Random, Maker, List)} into the core, with a Random of the seed. */
  static void index(SolrCore core, int records, long seed, Maker maker, List<String> deleted)
      throws SolrServerException, java.io.IOException {
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      index(solr, records, new Random(seed), maker, deleted);
    }
  }

  static void index(EmbeddedSolrServer solr, int records, Random random, Maker maker, List<String> deleted)
      throws SolrServerException, java.io.IOException {
    for (int segment = 0; segment < 4; segment++) {
      List<SolrInputDocument> batch = new ArrayList<>();
      for (int i = 0; i < records / 4; i++) {
        // few: many deletes would make the merge policy merge the segments away
        boolean again = segment > 0 && random.nextInt(20) == 0;
        batch.add(maker.record(again ? "r0-" + random.nextInt(records / 4) : "r" + segment + "-" + i, segment, random));
      }
      solr.add(batch);
      solr.commit();
    }
    solr.deleteById(deleted);
    solr.commit();
  }
}
