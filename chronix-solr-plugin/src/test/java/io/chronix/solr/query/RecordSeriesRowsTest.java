package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SortedArrayMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.util.Bits;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.search.SolrIndexSearcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The series rows a segment keeps per record are the rows its columns give, read after read (the
 * first reads fill the slots, later ones take them, as the same rows); a segment's records of one
 * series share one row; a segment past the bound, closed or deaf to listeners keeps nothing and
 * is read from its columns, as is a row past the bound; a closed segment's bytes are given back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecordSeriesRowsTest extends OnTestCore {

  private static final int RECORDS = 2_000;
  /** Bytes kept before this class listed anything. */
  private static long unlisted;

  @BeforeAll
  static void indexRecords() throws Exception {
    // few series, many records each: 7 names, 30 hosts
    KeptPerSegment.index(core, RECORDS, 2211, 30);
    unlisted = RecordSeriesRows.bytes();
  }

  @Test
  @Order(1)
  void rowsAreTheColumnsRowsAndTheSameRowsAgain() throws Exception {
    Random random = new Random(9);
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
      assertTrue(leaves.size() > 1, "one segment");
      for (int round = 0; round < 120; round++) {
        LeafReader reader = leaves.get(random.nextInt(leaves.size())).reader();
        int[] docs = KeptPerSegment.someDocs(reader, random, 40);
        DocValueRecords columns = DocValueRecords.of(reader, searcher.getSchema());
        Set<Map<String, String>> expected = new HashSet<>();
        for (SortedArrayMap<String> row : columns.fieldsOf(docs, docs.length, RecordFields::isSeriesField)) {
          expected.add(new TreeMap<>(row));
        }
        List<SortedArrayMap<String>> first = rowsOf(reader, columns, docs);
        assertEquals(expected, entries(first), "round " + round);
        assertEquals(expected.size(), first.size(), "a row twice, round " + round);
        List<SortedArrayMap<String>> again = rowsOf(reader, columns, docs);
        assertEquals(identities(first), identities(again), "rows read again, round " + round);
        for (SortedArrayMap<String> row : first) {
          assertTrue(row instanceof io.chronix.core.series.KeptRow, "a kept row its reader cannot keep with");
        }
      }
      for (LeafReaderContext leaf : leaves) {
        assertTrue(RecordSeriesRows.isKept(leaf.reader()), "segment " + leaf.ord + " not kept");
      }
    }
  }

  /** Two records of one series in a segment, asked about one at a time, give one row. */
  @Test
  @Order(2)
  void aSegmentsRecordsOfOneSeriesShareTheirRow() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      LeafReader reader = searcher.getIndexReader().leaves().get(0).reader();
      DocValueRecords columns = DocValueRecords.of(reader, searcher.getSchema());
      Map<Map<String, String>, SortedArrayMap<String>> bySeries = new java.util.HashMap<>();
      int shared = 0;
      Bits live = reader.getLiveDocs();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        SortedArrayMap<String> row = rowsOf(reader, columns, new int[] {doc}).get(0);
        SortedArrayMap<String> before = bySeries.putIfAbsent(new TreeMap<>(row), row);
        if (before != null) {
          assertSame(before, row, "doc " + doc);
          shared++;
        }
      }
      assertTrue(shared > 100, "records of one series: " + shared);
    }
  }

  /** A segment's records read in several batches map each record to its own row. */
  @Test
  @Order(3)
  void recordsOfSeveralBatchesGetTheirRows() throws Exception {
    int records = RecordReader.BATCH * 2 + 100;
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      KeptPerSegment.onOwnSegment(records, i -> {
        Document document = new Document();
        document.add(new org.apache.lucene.document.SortedDocValuesField("name",
            new org.apache.lucene.util.BytesRef("m" + i % 7)));
        document.add(new org.apache.lucene.document.SortedDocValuesField("host",
            new org.apache.lucene.util.BytesRef("h" + i % 101)));
        return document;
      }, reader -> {
        DocValueRecords columns = DocValueRecords.of(reader, request.getSearcher().getSchema());
        int[] all = java.util.stream.IntStream.range(0, records).toArray();
        Set<Map<String, String>> expected = new HashSet<>();
        for (int i = 0; i < records; i++) {
          expected.add(Map.of("name", "m" + i % 7, "host", "h" + i % 101));
        }
        assertEquals(expected, entries(rowsOf(reader, columns, all)));
        // each record's row, asked one at a time once all are kept
        for (int doc = 0; doc < records; doc += 97) {
          assertEquals(Map.of("name", "m" + doc % 7, "host", "h" + doc % 101),
              new TreeMap<>(rowsOf(reader, columns, new int[] {doc}).get(0)), "record " + doc);
        }
      });
    }
  }

  /**
   * A segment past the bound, one closed already (its listener runs as it is added) and one that
   * takes no listener keep nothing and count no slots: theirs would never be given back. Their
   * rows still come from the columns.
   */
  @Test
  @Order(4)
  void aSegmentPastTheBoundClosedOrDeafKeepsNothing() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      KeptPerSegment.onOwnSegment(10, i -> new Document(), reader -> {
        // no field the schema knows: each record's row is empty
        DocValueRecords columns = DocValueRecords.of(reader, request.getSearcher().getSchema());
        int[] docs = {0, 3, 9};
        long before = RecordSeriesRows.bytes();
        long slots = 4L * reader.maxDoc();
        SeriesRows pastTheBound = new SeriesRows();
        RecordSeriesRows.addRows(reader, columns, docs, docs.length, pastTheBound, before + slots - 1);
        assertEquals(1, pastTheBound.rows().size());
        assertFalse(RecordSeriesRows.isKept(reader), "past the bound");
        for (boolean closed : new boolean[] {true, false}) {
          LeafReader odd = SegmentCoresTest.withCoreHelper(reader, closed);
          SeriesRows rows = new SeriesRows();
          RecordSeriesRows.addRows(odd, columns, docs, docs.length, rows);
          assertEquals(1, rows.rows().size());
          assertFalse(RecordSeriesRows.isKept(odd), closed ? "a closed segment" : "a segment without listeners");
        }
        assertEquals(before, RecordSeriesRows.bytes());
        // its slots fit, its row does not: read from the columns each time
        for (int read = 0; read < 2; read++) {
          SeriesRows rows = new SeriesRows();
          RecordSeriesRows.addRows(reader, columns, docs, docs.length, rows, before + slots);
          assertEquals(1, rows.rows().size());
          assertFalse(rows.rows().iterator().next() instanceof io.chronix.core.series.KeptRow, "a row not kept");
          assertTrue(RecordSeriesRows.isKept(reader), "the segment itself, open");
          assertEquals(before + slots, RecordSeriesRows.bytes());
        }
        List<SortedArrayMap<String>> kept = rowsOf(reader, columns, docs);
        assertEquals(before + slots + RecordSeriesRows.rowBytes(kept.get(0)), RecordSeriesRows.bytes());
        assertSame(kept.get(0), rowsOf(reader, columns, docs).get(0), "a row kept within the bound");
      });
    }
  }

  @Test
  @Order(5)
  void closedSegmentsGiveTheirBytesBack() throws Exception {
    long kept = 0;
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      for (LeafReaderContext leaf : request.getSearcher().getIndexReader().leaves()) {
        if (RecordSeriesRows.isKept(leaf.reader())) {
          assertTrue(RecordSeriesRows.keptBytes(leaf.reader()) > 4L * leaf.reader().maxDoc(), "slots and rows");
          kept += RecordSeriesRows.keptBytes(leaf.reader());
        }
      }
    }
    assertTrue(kept > 4L * RECORDS / 2, "kept: " + kept);
    long before = RecordSeriesRows.bytes();
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      solr.optimize(); // one segment: the others close once no searcher holds them
    }
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      assertEquals(1, request.getSearcher().getIndexReader().leaves().size());
      // the test classes run one after another, each closing its cores: only this core keeps rows
      assertEquals(before - kept, RecordSeriesRows.bytes(), "bytes of closed segments");
      assertEquals(unlisted, RecordSeriesRows.bytes(), "bytes left of this class's segments");
    }
  }

  private static List<SortedArrayMap<String>> rowsOf(LeafReader reader, DocValueRecords columns, int[] docs)
      throws java.io.IOException {
    SeriesRows rows = new SeriesRows();
    RecordSeriesRows.addRows(reader, columns, docs, docs.length, rows);
    return new ArrayList<>(rows.rows());
  }

  private static Set<Map<String, String>> entries(List<SortedArrayMap<String>> rows) {
    Set<Map<String, String>> entries = new HashSet<>();
    for (SortedArrayMap<String> row : rows) {
      entries.add(new TreeMap<>(row));
    }
    return entries;
  }

  private static Set<Object> identities(List<SortedArrayMap<String>> rows) {
    Set<Object> identities = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    identities.addAll(rows);
    return identities;
  }

}
