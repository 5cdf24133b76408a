package io.chronix.solr.query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.PointRangeQuery;
import org.apache.lucene.search.Query;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.NumberType;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.search.SortedIntDocSet;

/**
 * The records a series query selects. Where its main query is a conjunction with time-range
 * clauses (the PromQL API's {@code end:[from TO *] AND start:[* TO to]}, a series query's
 * {@code name:cpu AND host:a AND start:.. AND end:..}) and the rest of it selects few records, the
 * rest's set comes from Solr's filter cache and the range is checked on those records' doc values.
 * Solr would compute the range on its own over the whole index, from the points of every record, to
 * intersect it with the few: 27 % of a one-series PromQL query over 10,000 series; and a window
 * that moves (a dashboard's "last hour") is a new query each time, which its filter cache cannot
 * answer. The answer is the same set: the range clauses are checked as they read, on the same
 * single-valued fields.
 */
final class RecordDocs {

  /** The filters' matches, as a share of the index, up to which checking doc values beats the points. */
  private static final int MAX_SHARE_DIVISOR = 8;

  private record LongRange(Query clause, String field, long lower, long upper) {}

  private RecordDocs() {}

  static DocSet of(SolrIndexSearcher searcher, List<Query> queries) throws IOException {
    Conjunction main = Conjunction.of(queries.get(0), searcher.getSchema());
    if (main == null || main.ranges().isEmpty()) {
      return searcher.getDocSet(queries);
    }
    List<LongRange> ranges = main.ranges();
    List<LongRange> open = new ArrayList<>(ranges.size());
    for (LongRange range : ranges) {
      switch (IndexBounds.of(searcher.getIndexReader(), range.field()).against(range.lower(), range.upper())) {
        case NONE:
          return DocSet.empty();
        case SOME:
          open.add(range);
          break;
        default: // every record in range: the clause is left out
      }
    }
    List<Query> rest = new ArrayList<>(queries);
    rest.set(0, main.rest());
    if (open.isEmpty()) {
      return searcher.getDocSet(rest);
    }
    if (main.rest() instanceof MatchAllDocsQuery && queries.size() == 1) {
      return searcher.getDocSet(List.of(conjunction(open, main.rest())));
    }
    DocSet filtered = searcher.getDocSet(rest);
    if (filtered.size() > searcher.maxDoc() / MAX_SHARE_DIVISOR) {
      rest.set(0, conjunction(open, main.rest()));
      return searcher.getDocSet(rest);
    }
    return withinRanges(searcher, filtered, open);
  }

  /** A conjunction's long-range clauses on single-valued doc-values fields, and all its other clauses as one query. */
  private record Conjunction(List<LongRange> ranges, Query rest) {

    /** The query's parts when it is a conjunction (or a single clause), or null. */
    static Conjunction of(Query query, IndexSchema schema) {
      if (!(query instanceof BooleanQuery bool)) {
        LongRange range = longRange(query, schema);
        return range == null ? new Conjunction(List.of(), query) : new Conjunction(List.of(range), new MatchAllDocsQuery());
      }
      if (bool.clauses().isEmpty() || bool.getMinimumNumberShouldMatch() > 0) {
        return null;
      }
      List<LongRange> ranges = new ArrayList<>();
      List<Query> others = new ArrayList<>();
      for (BooleanClause clause : bool.clauses()) {
        if (!clause.isRequired()) {
          return null;
        }
        LongRange range = longRange(clause.getQuery(), schema);
        if (range == null) {
          others.add(clause.getQuery());
        } else {
          ranges.add(range);
        }
      }
      return new Conjunction(ranges, all(others));
    }

    private static Query all(List<Query> clauses) {
      if (clauses.isEmpty()) {
        return new MatchAllDocsQuery();
      }
      if (clauses.size() == 1) {
        return clauses.get(0);
      }
      BooleanQuery.Builder all = new BooleanQuery.Builder();
      for (Query clause : clauses) {
        all.add(clause, BooleanClause.Occur.FILTER);
      }
      return all.build();
    }
  }

  /**
   * The open ranges' clauses and the rest as one query. The clauses the whole index satisfies had
   * made Solr intersect them record by record (the window of a dashboard's "last 6 hours" ends after
   * every record's start), for a set its filter cache cannot keep as the window moves: a third of
   * listing the label names of 10,000 series.
   */
  private static Query conjunction(List<LongRange> ranges, Query rest) {
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    if (!(rest instanceof MatchAllDocsQuery)) {
      all.add(rest, BooleanClause.Occur.FILTER);
    }
    for (LongRange range : ranges) {
      all.add(range.clause(), BooleanClause.Occur.FILTER);
    }
    BooleanQuery query = all.build();
    return query.clauses().size() == 1 ? query.clauses().get(0).getQuery() : query;
  }

  private static LongRange longRange(Query query, IndexSchema schema) {
    Query clause = query;
    if (query instanceof IndexOrDocValuesQuery either) { // Solr's range on a field with points and doc values
      query = either.getIndexQuery();
    }
    if (!(query instanceof PointRangeQuery range) || range.getNumDims() != 1 || range.getBytesPerDim() != Long.BYTES) {
      return null;
    }
    SchemaField field = schema.getFieldOrNull(range.getField());
    if (field == null || !field.hasDocValues() || field.multiValued() || field.getType().getNumberType() != NumberType.LONG) {
      return null;
    }
    return new LongRange(clause, range.getField(), LongPoint.decodeDimension(range.getLowerPoint(), 0),
        LongPoint.decodeDimension(range.getUpperPoint(), 0));
  }

  private static DocSet withinRanges(SolrIndexSearcher searcher, DocSet candidates, List<LongRange> ranges)
      throws IOException {
    int[] docs = RecordReader.sortedIds(candidates);
    int kept = 0;
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    int leaf = -1;
    NumericDocValues[] values = new NumericDocValues[ranges.size()];
    for (int doc : docs) {
      int at = ReaderUtil.subIndex(doc, leaves);
      if (at != leaf) { // doc values are read forward within a segment: new ones for each segment
        leaf = at;
        for (int r = 0; r < ranges.size(); r++) {
          values[r] = leaves.get(leaf).reader().getNumericDocValues(ranges.get(r).field());
        }
      }
      if (within(values, ranges, doc - leaves.get(leaf).docBase)) {
        docs[kept++] = doc;
      }
    }
    return new SortedIntDocSet(java.util.Arrays.copyOf(docs, kept));
  }

  private static boolean within(NumericDocValues[] values, List<LongRange> ranges, int doc) throws IOException {
    for (int r = 0; r < ranges.size(); r++) {
      if (values[r] == null || !values[r].advanceExact(doc)) {
        return false;
      }
      long value = values[r].longValue();
      if (value < ranges.get(r).lower() || value > ranges.get(r).upper()) {
        return false;
      }
    }
    return true;
  }
}
