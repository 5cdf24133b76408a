package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.KeptBlocks;
import io.chronix.core.series.Points;
import java.util.List;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.util.RefCounted;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A series query over a range inside a stored record keeps the blocks it decoded whole in the
 * record cache it reads through, and takes them from there the next time ({@link KeptBlocks}); a
 * summary over a range keeps the blocks its range cuts as well.
 */
class KeptBlocksQueryTest extends OnTestCore {

  private static final long T0 = 1_700_000_000_000L;
  /** Six blocks of 512 points, one a second. */
  private static final int N = 3_000;
  private static final Points POINTS = new Points();

  @BeforeAll
  static void indexRecord() throws Exception {
    for (int i = 0; i < N; i++) {
      POINTS.add((T0 + i * 1000L) * 1_000_000L, i);
    }
    SolrInputDocument record = new SolrInputDocument();
    record.addField("id", "cpu-1");
    record.addField("name", "cpu");
    record.addField("type", "metric");
    record.addField("start", T0);
    record.addField("end", T0 + (N - 1) * 1000L);
    record.addField("count", (long) N);
    record.addField("min", 0.0);
    record.addField("max", N - 1.0);
    record.addField("sum", (N - 1.0) * N / 2);
    record.addField("first", 0.0);
    record.addField("last", N - 1.0);
    record.addField("data", ChunkCodec.lossless().encode(POINTS));
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      solr.add(record);
      solr.commit();
    }
  }

  @Test
  void aRangeTakesItsInnerBlocksFromTheRecordCache() throws Exception {
    RecordCache cache = new RecordCache(1 << 22);
    SeriesCollector collector = new SeriesCollector(Long.MAX_VALUE, cache);
    List<Query> queries = List.of(new TermQuery(new Term("name", "cpu")));
    TimeRange range = new TimeRange(T0 + 100_000L, T0 + 2_900_000L); // blocks 1 to 4 whole
    RefCounted<SolrIndexSearcher> searcher = core.getSearcher();
    try {
      Points first = collector.collect(searcher.get(), queries, range, JoinFields.DEFAULT).get(0).points();
      assertEquals(2_801, first.size());
      assertEquals(100.0, first.value(0));

      LeafReader segment = searcher.get().getIndexReader().leaves().get(0).reader();
      KeptBlocks kept = cache.blocksOf(segment).apply(0);
      assertNull(kept.get(0), "the block the range starts in is not kept");
      KeptBlocks.DecodedBlock block = kept.get(2);
      assertNotNull(block, "a block inside the range is kept as the query decoded it");
      double[] planted = block.values().clone();
      for (int i = 0; i < planted.length; i++) {
        planted[i] += 0.5;
      }
      kept.keep(2, new KeptBlocks.DecodedBlock(block.timestamps(), planted));

      Points again = collector.collect(searcher.get(), queries, range, JoinFields.DEFAULT).get(0).points();
      assertEquals(first.size(), again.size());
      for (int i = 0; i < again.size(); i++) {
        int point = i + 100;
        assertEquals(point + (point >= 1024 && point < 1536 ? 0.5 : 0.0), again.value(i), "point " + point);
      }
    } finally {
      searcher.decref();
    }
  }

  /** A summary over a range keeps the two blocks the range cuts, decoded whole, and takes them from there next time. */
  @Test
  void aSummaryTakesTheBlocksItsRangeCutsFromTheRecordCache() throws Exception {
    RecordCache cache = new RecordCache(1 << 22);
    SeriesCollector collector = new SeriesCollector(Long.MAX_VALUE, cache);
    List<Query> queries = List.of(new TermQuery(new Term("name", "cpu")));
    TimeRange range = new TimeRange(T0 + 100_000L, T0 + 2_900_000L); // cuts blocks 0 and 5
    RefCounted<SolrIndexSearcher> searcher = core.getSearcher();
    try {
      RecordSummary first = collector.collect(searcher.get(), queries, range, JoinFields.DEFAULT, false, true).get(0)
          .summary();
      assertEquals(2_801, first.stats().count());
      assertEquals(100.0, first.stats().min());
      assertEquals(2_900.0, first.stats().max());

      LeafReader segment = searcher.get().getIndexReader().leaves().get(0).reader();
      KeptBlocks kept = cache.blocksOf(segment).apply(0);
      KeptBlocks.DecodedBlock last = kept.get(5);
      assertNotNull(kept.get(0), "the block the range starts in is kept whole");
      assertNotNull(last, "the block the range ends in is kept whole");
      assertEquals(N - 5 * 512, last.size());
      double[] planted = last.values().clone();
      planted[2_900 - 5 * 512] = 1e9; // the range's last point
      kept.keep(5, new KeptBlocks.DecodedBlock(last.timestamps(), planted));

      RecordSummary again = collector.collect(searcher.get(), queries, range, JoinFields.DEFAULT, false, true).get(0)
          .summary();
      assertEquals(1e9, again.stats().max(), "the kept block answered");
      assertEquals(first.stats().count(), again.stats().count());
    } finally {
      searcher.decref();
    }
  }
}
