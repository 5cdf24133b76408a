package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SortedArrayMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
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
 * Series field values read from doc values with the segments' kept Strings by ordinal are the
 * records' stored values, read after read (the first reads fill the slots, later ones take them);
 * a kept value is handed out as the same String again, ids are not kept; a column past the bounds
 * is not kept, and a closed segment's slots are given back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrdinalTextsTest extends OnTestCore {

  private static final int RECORDS = 2_000;

  @BeforeAll
  static void indexRecords() throws Exception {
    KeptPerSegment.index(core, RECORDS, 1128, 400);
  }

  @Test
  @Order(1)
  void valuesAreTheStoredOnesReadAfterRead() throws Exception {
    Random random = new Random(5);
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      assertTrue(searcher.getIndexReader().leaves().size() > 1, "one segment");
      for (int round = 0; round < 200; round++) {
        LeafReaderContext leaf = searcher.getIndexReader().leaves().get(random.nextInt(
            searcher.getIndexReader().leaves().size()));
        LeafReader reader = leaf.reader();
        int[] docs = KeptPerSegment.someDocs(reader, random, 5);
        DocValueRecords columns = DocValueRecords.of(reader, searcher.getSchema());
        assertNotNull(columns, "doc values");
        List<SortedArrayMap<String>> rows = columns.fieldsOf(docs, docs.length, RecordFields::isSeriesField);
        Set<String> hosts = new TreeSet<>();
        Set<String> dcs = new TreeSet<>();
        for (int i = 0; i < docs.length; i++) {
          Document stored = reader.storedFields().document(docs[i]);
          TreeMap<String, String> expected = new TreeMap<>();
          for (IndexableField field : stored.getFields()) {
            if (RecordFields.isSeriesField(field.name())) {
              expected.put(field.name(), SeriesFields.text(field));
            }
          }
          assertEquals(expected, new TreeMap<>(rows.get(i)), "round " + round + ", doc " + docs[i]);
          hosts.add(stored.get("host"));
          if (stored.get("dc") != null) {
            dcs.add(stored.get("dc"));
          }
        }
        Set<String> values = new TreeSet<>();
        columns.addValues("host", docs, docs.length, values);
        assertEquals(hosts, values, "round " + round);
        values.clear();
        columns.addValues("dc", docs, docs.length, values);
        assertEquals(dcs, values, "round " + round);
      }
      assertTrue(OrdinalTexts.slots() > 0, "nothing kept");
    }
  }

  @Test
  @Order(2)
  void aKeptValueIsTheSameStringAgainAndIdsAreNotKept() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      LeafReader reader = searcher.getIndexReader().leaves().get(0).reader();
      int[] docs = KeptPerSegment.someDocs(reader, new Random(3), 5);
      DocValueRecords columns = DocValueRecords.of(reader, searcher.getSchema());
      List<SortedArrayMap<String>> first = columns.fieldsOf(docs, docs.length, field -> true);
      List<SortedArrayMap<String>> again = DocValueRecords.of(reader, searcher.getSchema())
          .fieldsOf(docs, docs.length, field -> true);
      for (int i = 0; i < docs.length; i++) {
        assertSame(first.get(i).get("host"), again.get(i).get("host"), "doc " + docs[i]);
        assertSame(first.get(i).get("name"), again.get(i).get("name"), "doc " + docs[i]);
        assertEquals(first.get(i).get("id"), again.get(i).get("id"));
        assertNotSame(first.get(i).get("id"), again.get(i).get("id"), "an id kept");
      }
    }
  }

  /**
   * A value kept in two segments is one String, and so is a field's name: rows of the same series in
   * two segments are equal by identity.
   */
  @Test
  @Order(3)
  void aValueIsOneStringInEverySegment() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      java.util.Map<String, String> seen = new java.util.HashMap<>();
      int shared = 0;
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        LeafReader reader = leaf.reader();
        int[] docs = KeptPerSegment.someDocs(reader, new Random(7), 5);
        for (SortedArrayMap<String> row : DocValueRecords.of(reader, searcher.getSchema())
            .fieldsOf(docs, docs.length, RecordFields::isSeriesField)) {
          String host = row.get("host");
          for (int i = 0; i < row.size(); i++) {
            assertSame(row.name(i).intern(), row.name(i), "a field name not shared by the segments");
          }
          String before = seen.putIfAbsent(host, host);
          if (before != null) {
            assertSame(before, host, host);
            shared++;
          }
        }
      }
      assertTrue(shared > 500, "values in several segments: " + shared);
    }
  }

  /**
   * A segment closed already (its listener runs as it is added) or one that takes no listener
   * keeps nothing: its slots would never be given back.
   */
  @Test
  @Order(4)
  void aSegmentThatCannotTellWhenItClosesKeepsNothing() throws Exception {
    // a segment of its own, whose core nothing has kept columns of yet
    KeptPerSegment.onOwnSegment(1, i -> new Document(), reader -> {
      int before = OrdinalTexts.slots();
      assertNull(OrdinalTexts.column(SegmentCoresTest.withCoreHelper(reader, true), "closed", 10), "a closed segment");
      assertNull(OrdinalTexts.column(SegmentCoresTest.withCoreHelper(reader, false), "deaf", 10), "a segment without listeners");
      assertEquals(before, OrdinalTexts.slots());
      assertNotNull(OrdinalTexts.column(reader, "open", 10), "the segment itself, open");
    });
  }

  @Test
  @Order(5)
  void columnsPastTheBoundsAreNotKeptAndClosedSegmentsGiveTheirSlotsBack() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      LeafReader reader = request.getSearcher().getIndexReader().leaves().get(0).reader();
      assertNull(OrdinalTexts.column(reader, "wide", OrdinalTexts.MAX_VALUES + 1), "too many values");
      assertNotNull(OrdinalTexts.column(reader, "narrow", OrdinalTexts.MAX_VALUES));
      int filled = 0;
      while (OrdinalTexts.column(reader, "filler" + filled, OrdinalTexts.MAX_VALUES) != null) {
        filled++;
        assertTrue(OrdinalTexts.slots() <= OrdinalTexts.MAX_SLOTS, "over the bound: " + OrdinalTexts.slots());
      }
      assertTrue(filled < OrdinalTexts.MAX_SLOTS / OrdinalTexts.MAX_VALUES, "filled " + filled);
      assertNotNull(OrdinalTexts.column(reader, "narrow", OrdinalTexts.MAX_VALUES), "a kept column lost");
    }
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      solr.optimize(); // one segment: the others close once no searcher holds them
    }
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      assertEquals(1, request.getSearcher().getIndexReader().leaves().size());
      // other test classes' cores may keep a few small columns; the fillers are gone
      assertTrue(OrdinalTexts.slots() < OrdinalTexts.MAX_VALUES, "slots of closed segments: " + OrdinalTexts.slots());
    }
  }

}
