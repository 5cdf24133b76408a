package io.chronix.ingest.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.RecordFields;
import io.chronix.ingest.ChronixServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.common.SolrDocument;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction asks for a batch's records page by page: two small records inside the span of 22 full
 * records that overlap one another, read five records a page, still end up merged with all of
 * them, every point kept once and no two records overlapping. Over HTTP, and through the embedded
 * node's client, with which the compactor reads in its own thread; with the overlapping records found
 * by a walk of the batch's range of ids, and by a query a series ({@link OverClientsAndQueries}).
 */
class CompactorOverlapTest {

  private static final long BASE = 1_700_000_000_000L;
  /** Full records, each with every 22nd point of one span: all overlap one another. */
  private static final int FULL = 22;
  private static final int FULL_POINTS = 60;

  @TempDir Path dataDir;

  @OverClientsAndQueries
  void smallRecordsMergeWithEveryRecordThatOverlapsThem(boolean embedded, boolean walked) throws Exception {
    try (ChronixServer server = CompactionServer.start(dataDir);
        SolrClient solr = CompactionServer.client(server, embedded)) {
      for (int k = 0; k < FULL; k++) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < FULL_POINTS; i++) {
          lines.append(line(k + FULL * i, 10L * (k + FULL * i)));
        }
        CompactionServer.writeRecords(server, "ms", lines.toString());
      }
      for (int offset : new int[] {5, 7}) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 5; i++) {
          lines.append(line(-1, 10L * FULL * i * 10 + offset));
        }
        CompactionServer.writeRecords(server, "ms", lines.toString());
      }
      assertEquals(FULL + 2, records(solr).size());

      Compactor.Result result = new Compactor(solr, "chronix", 100, ChunkCodec.lossless(), new Compactor.Sizes(5, 5, 1000, 100, CompactionServer.walked(walked))).compact();

      int points = FULL * FULL_POINTS + 10;
      assertEquals(FULL + 2, result.recordsRead(), "the small records and every record overlapping them");
      List<SolrDocument> after = records(solr);
      assertEquals((points + 99) / 100, after.size(), "full records of 100 points, and the rest");
      after.sort(Comparator.comparingLong(record -> number(record, RecordFields.START)));
      long sum = 0;
      for (int i = 0; i < after.size(); i++) {
        sum += number(after.get(i), RecordFields.COUNT);
        if (i > 0) {
          assertTrue(number(after.get(i), RecordFields.START) > number(after.get(i - 1), RecordFields.END),
              "records " + (i - 1) + " and " + i + " overlap");
        }
      }
      assertEquals(points, sum, "every point kept once");
    }
  }

  private static String line(int value, long offsetMillis) {
    return "overlap value=" + value + " " + (BASE + offsetMillis) + "\n";
  }

  private static List<SolrDocument> records(SolrClient solr) throws Exception {
    return new ArrayList<>(solr.query("chronix", new SolrQuery("name:overlap").setFields(RecordFields.START, RecordFields.END, RecordFields.COUNT)
        .setRows(1000)).getResults());
  }

  private static long number(SolrDocument record, String field) {
    return ((Number) record.getFirstValue(field)).longValue();
  }
}
