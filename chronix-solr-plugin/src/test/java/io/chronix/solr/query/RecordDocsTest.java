package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.FixedBitSet;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SolrIndexSearcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The records a series query selects, against Solr's own answer for the same queries, over several
 * segments with deleted and replaced records: filters that select few records (ranges checked on
 * doc values), many (ranges read from the points) and all, ranges that every record, some or none
 * satisfy.
 */
class RecordDocsTest extends OnTestCore {

  private static final int RECORDS = 3_000;
  private static final long SPAN = 1_000_000;

  /** Every record's start and end: ranges that begin or end on one check the bounds. */
  private static final List<Long> BOUNDS = new ArrayList<>();

  @BeforeAll
  static void indexRecords() throws Exception {
    Random random = new Random(20261127);
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      SegmentedRecords.index(solr, RECORDS, random, RecordDocsTest::record,
          List.of("r1-1", "r1-2", "r2-3", "r3-10", "r3-11"));
      solr.deleteByQuery("host:h7");
      solr.commit();
    }
  }

  /** A record of the segment's quarter of the span, mostly: segments lie wholly inside, across or outside a range. */
  private static SolrInputDocument record(String id, int segment, Random random) {
    long start = random.nextInt(50) == 0 ? (long) (random.nextDouble() * SPAN)
        : segment * SPAN / 4 + (long) (random.nextDouble() * SPAN / 4);
    SolrInputDocument record = new SolrInputDocument();
    record.addField("id", id);
    record.addField("name", "m" + random.nextInt(5));
    record.addField("type", random.nextInt(10) == 0 ? "string" : "metric");
    long end = start + random.nextInt(100_000);
    BOUNDS.add(start);
    BOUNDS.add(end);
    record.addField("start", start);
    record.addField("end", end);
    record.addField("host", "h" + random.nextInt(50));
    record.addField("data", new byte[] {0});
    return record;
  }

  @Test
  void selectsTheRecordsSolrSelects() throws Exception {
    Random random = new Random(5);
    String[] filters = {null, "-type:string", "host:h3", "name:m1", "name:m1 OR name:m2 OR name:m3", "host:nobody"};
    String[] mains = {"", "name:m2 AND ", "host:h4 AND ", "*:* AND ", "type:metric AND "};
    int many = 0;
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      for (int round = 0; round < 400; round++) {
        long from = random.nextInt(8) == 0 ? -5 : (long) (random.nextDouble() * SPAN);
        long to = random.nextInt(8) == 0 ? 2 * SPAN : from + (long) (random.nextDouble() * SPAN / 4);
        if (random.nextInt(10) == 0) { // after every record, or before
          from = random.nextBoolean() ? 3 * SPAN : -SPAN;
          to = from + 10;
        } else if (random.nextInt(3) == 0) {
          from = BOUNDS.get(random.nextInt(BOUNDS.size()));
          to = random.nextBoolean() ? from : BOUNDS.get(random.nextInt(BOUNDS.size()));
        }
        String ranges = random.nextBoolean()
            ? "end:[" + from + " TO *] AND start:[* TO " + to + "]"
            : "start:[* TO " + to + "]";
        String main = mains[random.nextInt(mains.length)] + ranges;
        String filter = filters[random.nextInt(filters.length)];
        List<Query> queries = new ArrayList<>();
        queries.add(parse(main, request));
        if (filter != null) {
          queries.add(parse(filter, request));
        }
        DocSet expected = searcher.getDocSet(queries);
        DocSet actual = RecordDocs.of(searcher, queries);
        many += expected.size() > searcher.maxDoc() / 8 ? 1 : 0;
        assertArrayEquals(RecordReader.sortedIds(expected), RecordReader.sortedIds(actual),
            "q=" + main + " fq=" + filter);
      }
      assertTrue(many > 50, "too few queries selected many records: " + many);
      assertTrue(searcher.getIndexReader().leaves().size() > 1, "one segment of " + searcher.maxDoc() + " records, " + searcher.numDocs() + " live");
      assertTrue(searcher.maxDoc() > searcher.numDocs(), "no deleted records");
    }
  }

  /**
   * A series query asked again reuses its terms and their conjunction: the records are still those
   * Solr selects for the rewritten text, window after window.
   */
  @Test
  void aSeriesQueryAskedAgainSelectsTheRecordsSolrSelects() throws Exception {
    Random random = new Random(7);
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      int found = 0;
      for (int round = 0; round < 300; round++) {
        long from = (long) (random.nextDouble() * SPAN);
        long to = from + (long) (random.nextDouble() * SPAN / 4);
        String q = "name:m" + random.nextInt(3) + " AND host:h" + random.nextInt(3) + " AND start:" + from
            + " AND end:" + to;
        RecordSelection selection = RecordSelection.parse(q, new Date(), request);
        DocSet expected = searcher.getDocSet(List.of(parse(selection.timeRange().query(), request)));
        found += expected.size();
        assertArrayEquals(RecordReader.sortedIds(expected),
            RecordReader.sortedIds(RecordDocs.of(searcher, List.of(selection.query()))), q);
      }
      assertTrue(found > 100, "the queries found " + found + " records");
    }
  }

  /** The same term instances make one conjunction; other instances, or another order, their own. */
  @Test
  void aSeriesTermsAreJoinedOnce() {
    Query name = PlainConjunction.term("name", "m1");
    Query host = PlainConjunction.term("host", "h3");
    Query joined = RecordDocs.filterConjunction(List.of(name, host));
    BooleanQuery.Builder expected = new BooleanQuery.Builder();
    expected.add(name, BooleanClause.Occur.FILTER);
    expected.add(host, BooleanClause.Occur.FILTER);
    assertEquals(expected.build(), joined);
    assertSame(joined, RecordDocs.filterConjunction(List.of(PlainConjunction.term("name", "m1"),
        PlainConjunction.term("host", "h3"))));
    Query fresh = RecordDocs.filterConjunction(List.of(new TermQuery(new Term("name", "m1")), host));
    assertEquals(joined, fresh);
    assertNotSame(joined, fresh);
    assertNotSame(joined, RecordDocs.filterConjunction(List.of(host, name)));
    Query range = parseQuietly("start:[1 TO 2]");
    assertNotSame(RecordDocs.filterConjunction(List.of(name, range)), RecordDocs.filterConjunction(List.of(name, range)),
        "a conjunction with other clauses is not kept");
  }

  private static Query parseQuietly(String q) {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      return parse(q, request);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A dashboard's window moves with every refresh: each window a new range, which Solr's filter
   * cache would keep as an entry of its own (a bit for every record) and never be asked for again.
   * Only the filter, which does repeat, is kept.
   */
  @Test
  void movingWindowsOverManyRecordsLeaveNoEntryInTheFilterCache() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      Query filter = parse("-type:string", request);
      searcher.getFilterCache().clear(); // the other test's queries may have filled it
      int before = searcher.getFilterCache().size();
      for (int window = 0; window < 20; window++) {
        long from = 100_000 + window * 7_919;
        Query main = parse("end:[" + from + " TO *] AND start:[* TO " + (from + 200_000) + "]", request);
        DocSet records = RecordDocs.of(searcher, List.of(main, filter));
        assertTrue(records.size() > searcher.maxDoc() / 8, "the window selects few records: " + records.size());
      }
      assertTrue(searcher.getFilterCache().size() <= before + 1,
          "filter cache entries " + before + " -> " + searcher.getFilterCache().size());
    }
  }

  /** A segment's bits moved into the index's at its base, word-aligned or not, as setting them one by one does. */
  @Test
  void segmentBitsLandAtTheSegmentsBase() {
    Random random = new Random(11);
    for (int round = 0; round < 2_000; round++) {
      int length = random.nextInt(300);
      int offset = random.nextInt(200);
      FixedBitSet segment = new FixedBitSet(length);
      for (int i = 0; i < length; i++) {
        if (random.nextInt(3) == 0) {
          segment.set(i);
        }
      }
      FixedBitSet index = new FixedBitSet(offset + length + random.nextInt(70));
      FixedBitSet expected = index.clone();
      for (int i = 0; i < index.length(); i++) {
        if (random.nextInt(5) == 0) { // bits of other segments stay
          index.set(i);
          expected.set(i);
        }
      }
      for (int i = 0; i < length; i++) {
        if (segment.get(i)) {
          expected.set(offset + i);
        }
      }
      RecordDocs.orShifted(segment, index, offset);
      assertTrue(expected.equals(index), "round " + round + ": " + length + " bits at " + offset);
    }
  }

  private static Query parse(String q, LocalSolrQueryRequest request) throws Exception {
    return QParser.getParser(q, request).getQuery();
  }
}
