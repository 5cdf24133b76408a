package io.chronix.ingest.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.RecordFields;
import io.chronix.ingest.ChronixServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.common.SolrDocument;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction asks for the records of several groups in one query and writes what they merge into
 * in one update: with two groups a batch, four series are merged across batch boundaries, and a full
 * record that overlaps both groups of one series (two records a group) is merged with the first
 * only, though the second's query finds it too: its points are kept once. A series with a full
 * record alone is left as it is. Over HTTP, and through the embedded node's client, with which the
 * compactor reads in its own thread; with the overlapping records found
 * by a walk of the batch's range of ids, and by a query a series ({@link OverClientsAndQueries}).
 */
class CompactorBatchTest {

  private static final long BASE = 1_700_000_000_000L;
  private static final int FULL_POINTS = 60;

  @TempDir Path dataDir;

  @OverClientsAndQueries
  void groupsMergeInBatchesAndARecordOverlappingTwoGroupsOnce(boolean embedded, boolean walked) throws Exception {
    try (ChronixServer server = CompactionServer.start(dataDir);
        SolrClient solr = CompactionServer.client(server, embedded)) {
      StringBuilder full = new StringBuilder();
      for (int i = 0; i < FULL_POINTS; i++) {
        full.append(line("x", i, 10L * i)).append(line("y", i, 10L * i));
      }
      CompactionServer.writeRecords(server, "ms", full.toString());
      // four small records of x inside the full record's span: two groups of two
      long[] smallStarts = {5, 105, 305, 405};
      for (int k = 0; k < smallStarts.length; k++) {
        StringBuilder lines = new StringBuilder();
        lines.append(line("x", -k, smallStarts[k])).append(line("x", -k, smallStarts[k] + 10));
        if (k < 2) {
          for (String host : new String[] {"a", "b", "c"}) {
            lines.append(line(host, k, 1000 + 100L * k)).append(line(host, k, 1010 + 100L * k));
          }
        }
        CompactionServer.writeRecords(server, "ms", lines.toString());
      }
      assertEquals(1 + 4 + 3 * 2, count(solr, "host:x OR host:a OR host:b OR host:c"));
      List<String> fullOnly = ids(solr, "host:y");

      Compactor.Result result = new Compactor(solr, "chronix", 100, ChunkCodec.lossless(), new Compactor.Sizes(3, 3, 2, 2, CompactionServer.walked(walked))).compact();

      assertEquals(4, result.series());
      assertEquals(3 + 2 + 3 * 2, result.recordsRead(), "x's full record read once, with its first group");
      assertEquals(2 + 3, result.recordsWritten());
      assertEquals(2, count(solr, "host:x"), "x: the full record with the first group, the second group");
      assertEquals(FULL_POINTS + 8, points(solr, "host:x"), "every point of x kept once");
      for (String host : new String[] {"a", "b", "c"}) {
        assertEquals(1, count(solr, "host:" + host));
        assertEquals(4, points(solr, "host:" + host));
      }
      assertEquals(fullOnly, ids(solr, "host:y"), "a series without small records is left alone");
    }
  }

  /**
   * With a batch a group, a series' two groups go to two batches: the second batch's query finds
   * the full record that overlaps the second group only, and merges it there.
   */
  @OverClientsAndQueries
  void eachBatchFindsTheFullRecordsOfItsOwnGroups(boolean embedded, boolean walked) throws Exception {
    try (ChronixServer server = CompactionServer.start(dataDir);
        SolrClient solr = CompactionServer.client(server, embedded)) {
      for (long fullStart : new long[] {0, 300}) {
        StringBuilder full = new StringBuilder();
        for (int i = 0; i < FULL_POINTS; i++) {
          full.append(line("z", i, fullStart + 2L * i)); // even: no timestamp shared with the small records
        }
        CompactionServer.writeRecords(server, "ms", full.toString());
      }
      for (long smallStart : new long[] {5, 105, 305, 405}) {
        CompactionServer.writeRecords(server, "ms", line("z", -1, smallStart) + line("z", -1, smallStart + 10));
      }

      Compactor.Result result = new Compactor(solr, "chronix", 100, ChunkCodec.lossless(),
          new Compactor.Sizes(100, 100, 2, 1, CompactionServer.walked(walked))).compact();

      assertEquals(6, result.recordsRead(), "each group with its own small records and the full record it overlaps");
      assertEquals(2, count(solr, "host:z"));
      assertEquals(2 * FULL_POINTS + 8, points(solr, "host:z"), "every point kept once");
    }
  }

  private static String line(String host, int value, long offsetMillis) {
    return "batched,host=" + host + " value=" + value + " " + (BASE + offsetMillis) + "\n";
  }

  private static long count(SolrClient solr, String hosts) throws Exception {
    return solr.query("chronix", new SolrQuery("name:batched AND (" + hosts + ")").setRows(0)).getResults()
        .getNumFound();
  }

  private static List<String> ids(SolrClient solr, String host) throws Exception {
    List<String> ids = new ArrayList<>();
    for (SolrDocument record : solr.query("chronix", new SolrQuery("name:batched AND " + host)
        .setFields(RecordFields.ID).setRows(100)).getResults()) {
      ids.add((String) record.getFirstValue(RecordFields.ID));
    }
    return ids;
  }

  private static long points(SolrClient solr, String host) throws Exception {
    long sum = 0;
    for (SolrDocument record : solr.query("chronix", new SolrQuery("name:batched AND " + host)
        .setFields(RecordFields.COUNT).setRows(100)).getResults()) {
      sum += ((Number) record.getFirstValue(RecordFields.COUNT)).longValue();
    }
    return sum;
  }
}
