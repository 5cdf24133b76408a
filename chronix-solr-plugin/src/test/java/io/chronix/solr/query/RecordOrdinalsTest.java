package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
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
 * A segment's kept ordinals are those of its column for every record (none for a record without
 * a value), the same array again; the values of a field listed through them are its stored values;
 * a column past the bound, and a segment closed or deaf to listeners, keep nothing; a closed
 * segment's bytes are given back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecordOrdinalsTest extends OnTestCore {

  private static final int RECORDS = 2_000;
  /** Bytes kept before this class listed anything. */
  private static long unlisted;

  @BeforeAll
  static void indexRecords() throws Exception {
    KeptPerSegment.index(core, RECORDS, 4242, 300);
    unlisted = RecordOrdinals.bytes();
  }

  @Test
  @Order(1)
  void keptOrdinalsAreTheColumnsAndListTheStoredValues() throws Exception {
    Random random = new Random(3);
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      assertTrue(searcher.getIndexReader().leaves().size() > 1, "one segment");
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        LeafReader reader = leaf.reader();
        for (String field : List.of("host", "dc")) {
          int[] ords = RecordOrdinals.of(reader, field);
          assertNotNull(ords, field);
          assertSame(ords, RecordOrdinals.of(reader, field), "read again");
          SortedDocValues column = DocValues.getSorted(reader, field);
          for (int doc = 0; doc < reader.maxDoc(); doc++) {
            assertEquals(column.advanceExact(doc) ? column.ordValue() : RecordOrdinals.NONE, ords[doc],
                field + ", doc " + doc);
          }
        }
        // the values listed through the kept ordinals are the stored ones
        DocValueRecords columns = DocValueRecords.of(reader, searcher.getSchema());
        for (int round = 0; round < 20; round++) {
          int[] docs = KeptPerSegment.someDocs(reader, random, 20);
          Set<String> expected = new TreeSet<>();
          for (int doc : docs) {
            Document stored = reader.storedFields().document(doc);
            if (stored.get("dc") != null) {
              expected.add(stored.get("dc"));
            }
          }
          Set<String> listed = new TreeSet<>();
          columns.addValues("dc", docs, docs.length, listed);
          assertEquals(expected, listed, "segment " + leaf.ord + ", round " + round);
        }
      }
      assertTrue(RecordOrdinals.bytes() >= unlisted + 2L * 4 * RECORDS, "kept: " + RecordOrdinals.bytes());
    }
  }

  /**
   * A column past the bound, and a segment closed already or deaf to listeners, keep nothing and
   * count nothing; the columns of a segment that keeps are counted.
   */
  @Test
  @Order(2)
  void aColumnPastTheBoundOrASegmentThatCannotTellWhenItClosesKeepsNothing() throws Exception {
    KeptPerSegment.onOwnSegment(10, i -> {
      Document document = new Document();
      if (i % 3 == 0) {
        document.add(new org.apache.lucene.document.SortedDocValuesField("host",
            new org.apache.lucene.util.BytesRef("h" + i % 2)));
      }
      return document;
    }, reader -> {
      long before = RecordOrdinals.bytes();
      assertNull(RecordOrdinals.of(reader, "host", before + 4L * reader.maxDoc() - 1), "past the bound");
      assertNull(RecordOrdinals.of(SegmentCoresTest.withCoreHelper(reader, true), "host"), "a closed segment");
      assertNull(RecordOrdinals.of(SegmentCoresTest.withCoreHelper(reader, false), "host"), "without listeners");
      assertEquals(before, RecordOrdinals.bytes());
      int[] ords = RecordOrdinals.of(reader, "host", before + 4L * reader.maxDoc());
      assertNotNull(ords, "within the bound");
      assertEquals(List.of(0, -1, -1, 1, -1, -1, 0, -1, -1, 1), java.util.Arrays.stream(ords).boxed().toList());
      assertEquals(before + 4L * reader.maxDoc(), RecordOrdinals.bytes());
    });
  }

  @Test
  @Order(3)
  void closedSegmentsGiveTheirBytesBack() throws Exception {
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      solr.optimize(); // one segment: the others close once no searcher holds them
    }
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      assertEquals(1, request.getSearcher().getIndexReader().leaves().size());
      // the test classes run one after another, each closing its cores: only this core kept columns
      assertEquals(unlisted, RecordOrdinals.bytes(), "bytes left of this class's segments");
    }
  }

}
