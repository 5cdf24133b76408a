package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.search.DocIterator;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SolrIndexSearcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The label names of a time range from the segments' column spans are the series fields of the
 * records Solr itself selects for the range and the filters: several segments with deleted and
 * replaced records, attributes that few records have, string series filtered out, windows on and
 * between records' bounds; and a segment's new deletions are seen.
 */
class ColumnSpansTest extends OnTestCore {

  private static final int RECORDS = 2_000;
  private static final long SPAN = 1_000_000;

  private static final List<Long> BOUNDS = new ArrayList<>();

  @BeforeAll
  static void indexRecords() throws Exception {
    SegmentedRecords.index(core, RECORDS, 1127, ColumnSpansTest::record, List.of("r1-1", "r1-2", "r2-3"));
  }

  private static SolrInputDocument record(String id, int segment, Random random) {
    long start = random.nextInt(50) == 0 ? (long) (random.nextDouble() * SPAN)
        : segment * SPAN / 4 + (long) (random.nextDouble() * SPAN / 4);
    long end = start + random.nextInt(20_000);
    BOUNDS.add(start);
    BOUNDS.add(end);
    SolrInputDocument record = new SolrInputDocument();
    record.addField("id", id);
    record.addField("name", "m" + random.nextInt(5));
    record.addField("type", random.nextInt(10) == 0 ? "string" : "metric");
    record.addField("start", start);
    record.addField("end", end);
    record.addField("host", "h" + random.nextInt(50));
    if (random.nextInt(3) == 0) {
      record.addField("dc", "d" + random.nextInt(3));
    }
    if (random.nextInt(40) == 0) {
      record.addField("rack_l", random.nextInt(9));
    }
    if (random.nextInt(300) == 0) {
      record.addField("solo", "x" + random.nextInt(3)); // a label of a few records only
    }
    record.addField("data", new byte[] {0});
    return record;
  }

  @Test
  void namesAreTheSeriesFieldsOfTheRecordsSolrSelects() throws Exception {
    Random random = new Random(9);
    String[] filters = {null, "-type:string", "name:m1", "host:nobody"};
    int partial = 0;
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      for (int round = 0; round < 300; round++) {
        long from = random.nextInt(8) == 0 ? -5 : (long) (random.nextDouble() * SPAN);
        long to = from + (long) (random.nextDouble() * SPAN / (random.nextBoolean() ? 4 : 400));
        if (random.nextInt(3) == 0) { // on a record's bounds, or just past them
          from = BOUNDS.get(random.nextInt(BOUNDS.size())) + random.nextInt(3) - 1;
          to = random.nextBoolean() ? from : BOUNDS.get(random.nextInt(BOUNDS.size())) + random.nextInt(3) - 1;
        }
        String filter = filters[random.nextInt(filters.length)];
        List<Query> queries = new ArrayList<>();
        queries.add(parse("end:[" + from + " TO *] AND start:[* TO " + to + "]", request));
        if (filter != null) {
          queries.add(parse(filter, request));
        }
        Set<String> expected = fieldsOf(searcher, queries);
        assertNotNull(RecordDocs.overlapWindow(queries.get(0), searcher.getSchema()), "the listings' shape");
        Set<String> names = new TreeSet<>();
        if (from > to) { // no union of records tells: the records are read
          assertTrue(!ColumnSpans.addNames(searcher, queries.subList(1, queries.size()), from, to, names));
          assertEquals(Set.of(), names);
          names = FieldValues.names(searcher, queries, TimeRange.ALL); // the range only for buffered series: none here
        } else {
          assertTrue(ColumnSpans.addNames(searcher, queries.subList(1, queries.size()), from, to, names));
        }
        assertEquals(expected, names, "[" + from + ", " + to + "] fq=" + filter);
        partial += !expected.isEmpty() && !expected.containsAll(Set.of("dc", "rack_l", "solo")) ? 1 : 0;
      }
      assertTrue(partial > 100, "windows where some labels are missing: " + partial);
      assertTrue(searcher.getIndexReader().leaves().size() > 1, "one segment");
      assertTrue(searcher.maxDoc() > searcher.numDocs(), "no deleted records");
    }
  }

  /** Deleting the records of a label in a segment whose spans are kept: the next searcher no longer lists it. */
  @Test
  void aSegmentsNewDeletionsAreSeen() throws Exception {
    List<Query> all;
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      all = List.of();
      Set<String> names = new TreeSet<>();
      assertTrue(ColumnSpans.addNames(request.getSearcher(), all, Long.MIN_VALUE, Long.MAX_VALUE, names));
      assertTrue(names.contains("solo"), names.toString());
    }
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      solr.deleteByQuery("solo:*");
      solr.commit();
    }
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      Set<String> names = new TreeSet<>();
      assertTrue(ColumnSpans.addNames(request.getSearcher(), all, Long.MIN_VALUE, Long.MAX_VALUE, names));
      assertEquals(fieldsOf(request.getSearcher(), List.of(parse("*:*", request))), names);
      assertTrue(!names.contains("solo"), names.toString());
    }
  }

  /**
   * A segment whose spans would be more than the cap keeps none: each segment of this index has
   * hundreds of spans a column (records a quarter of the span apart at random), so a cap of 10 is
   * exceeded and the default one is not.
   */
  @Test
  void segmentsTooScatteredInTimeKeepNoSpans() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      for (org.apache.lucene.index.LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        assertTrue(ColumnSpans.of(leaf, searcher.getLiveDocSet(), 10).scattered());
        assertTrue(!ColumnSpans.of(leaf, searcher.getLiveDocSet(), ColumnSpans.MAX_SPANS).scattered());
      }
    }
  }

  /** Only a main query of nothing but overlap ranges is answered from spans; any other clause or bound is not. */
  @Test
  void onlyOverlapWindowsAreTheListingsShape() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      org.apache.solr.schema.IndexSchema schema = request.getSchema();
      assertEquals(List.of(5L, 10L), window(parse("end:[5 TO *] AND start:[* TO 10]", request), schema));
      assertEquals(List.of(Long.MIN_VALUE, 10L), window(parse("start:[* TO 10]", request), schema));
      assertEquals(List.of(5L, Long.MAX_VALUE), window(parse("end:[5 TO *]", request), schema));
      for (String other : new String[] {"start:[5 TO 10]", "end:[5 TO 10]", "name:m1 AND start:[* TO 10]",
          "end:[5 TO *] OR start:[* TO 10]", "count:[1 TO *] AND start:[* TO 10]"}) {
        assertEquals(null, RecordDocs.overlapWindow(parse(other, request), schema), other);
      }
    }
  }

  private static List<Long> window(Query main, org.apache.solr.schema.IndexSchema schema) {
    long[] window = RecordDocs.overlapWindow(main, schema);
    assertNotNull(window, main::toString);
    return List.of(window[0], window[1]);
  }

  /** Spans merged where they overlap or touch answer whether any record meets a range, as the records do one by one. */
  @Test
  void mergedSpansMeetWhatTheirRecordsMeet() {
    Random random = new Random(3);
    for (int round = 0; round < 2_000; round++) {
      int count = 1 + random.nextInt(12);
      long[] starts = new long[count];
      long[] ends = new long[count];
      ColumnSpans.Spans spans = new ColumnSpans.Spans();
      for (int i = 0; i < count; i++) {
        starts[i] = random.nextInt(100);
        ends[i] = random.nextInt(4) == 0 ? Long.MAX_VALUE : starts[i] + random.nextInt(6);
        spans.add(starts[i], ends[i]);
      }
      long[] merged = spans.merged();
      for (int q = 0; q < 20; q++) {
        long from = random.nextInt(110) - 5;
        long to = from + random.nextInt(8);
        boolean any = false;
        for (int i = 0; i < count; i++) {
          any |= ends[i] >= from && starts[i] <= to;
        }
        assertEquals(any, ColumnSpans.meets(merged, from, to), "round " + round + ": [" + from + ", " + to + "]");
      }
    }
  }

  /** The series fields of the records the queries select, read from their stored fields. */
  private static Set<String> fieldsOf(SolrIndexSearcher searcher, List<Query> queries) throws Exception {
    Set<String> names = new TreeSet<>();
    for (DocIterator docs = searcher.getDocSet(queries).iterator(); docs.hasNext(); ) {
      for (IndexableField field : searcher.getDocFetcher().doc(docs.nextDoc()).getFields()) {
        String name = field.name();
        if (name.equals(RecordFields.NAME) || name.equals(RecordFields.TYPE) || RecordFields.isAttribute(name)) {
          names.add(name);
        }
      }
    }
    return names;
  }

  private static Query parse(String q, LocalSolrQueryRequest request) throws Exception {
    return QParser.getParser(q, request).getQuery();
  }
}
