package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.PointRangeQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.FixedBitSet;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.NumberType;
import org.apache.solr.schema.PointField;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.search.BitDocSet;
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
 * answer. Where the rest selects many records, the ranges are read from the points into a bit set
 * of their own, uncached, and intersected with the rest's set. The answer is the same set: the
 * range clauses are checked as they read, on the same single-valued fields.
 */
final class RecordDocs {

  /** The filters' matches, as a share of the index, up to which checking doc values beats the points. */
  private static final int MAX_SHARE_DIVISOR = 8;

  private record LongRange(String field, long lower, long upper) {}

  private RecordDocs() {}

  /**
   * {@code [from, to]} where the main query asks for nothing but records overlapping it (a record's
   * end at or after from, its start at or before to; either may be left out, and then is unbounded),
   * else null: the listings' shape, which {@link ColumnSpans} answers.
   */
  static long[] overlapWindow(Query main, IndexSchema schema) {
    Conjunction conjunction = Conjunction.of(main, schema);
    if (conjunction == null || !(conjunction.rest() instanceof MatchAllDocsQuery)) {
      return null;
    }
    long from = Long.MIN_VALUE;
    long to = Long.MAX_VALUE;
    for (LongRange range : conjunction.ranges()) {
      if (range.field().equals(RecordFields.END) && range.upper() == Long.MAX_VALUE) {
        from = Math.max(from, range.lower());
      } else if (range.field().equals(RecordFields.START) && range.lower() == Long.MIN_VALUE) {
        to = Math.min(to, range.upper());
      } else {
        return null;
      }
    }
    return new long[] {from, to};
  }

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
    DocSet filtered = main.rest() instanceof MatchAllDocsQuery && queries.size() == 1
        ? searcher.getLiveDocSet() : searcher.getDocSet(rest);
    if (filtered.size() > searcher.maxDoc() / MAX_SHARE_DIVISOR) {
      return filtered.intersection(fromPoints(searcher, open));
    }
    return withinRanges(searcher, filtered, open);
  }

  /**
   * The records within every range, from the index's points, not through Solr's filter cache:
   * the window of a dashboard's "last 6 hours" moves with every request, so each was a new entry
   * of that cache, and Solr intersected the ranges with the filters record by record (the
   * conjunction's scorer; 38 % of listing the label names of 10,000 series). A segment whose
   * points all lie inside a range needs no look at them, and one whose points all lie outside is
   * passed over. Deleted records still have points: the caller intersects with a set of live ones.
   */
  private static DocSet fromPoints(SolrIndexSearcher searcher, List<LongRange> ranges) throws IOException {
    FixedBitSet all = new FixedBitSet(searcher.maxDoc());
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      int maxDoc = leaf.reader().maxDoc();
      FixedBitSet within = maxDoc == 0 ? null : segmentInRanges(leaf, ranges);
      if (within == EVERY_RECORD) {
        all.set(leaf.docBase, leaf.docBase + maxDoc);
      } else if (within != null) {
        orShifted(within, all, leaf.docBase);
      }
    }
    return new BitDocSet(all);
  }

  /**
   * Sets in {@code into} the bits of {@code from} moved up by {@code offset}, a word at a time: a
   * segment's bits into the index's. Bit by bit this was a third of reading the ranges.
   */
  static void orShifted(FixedBitSet from, FixedBitSet into, int offset) {
    long[] source = from.getBits();
    long[] target = into.getBits();
    int words = FixedBitSet.bits2words(from.length());
    int first = offset >>> 6;
    int shift = offset & 63;
    for (int i = 0; i < words; i++) {
      long word = source[i];
      if (word != 0) {
        target[first + i] |= word << shift;
        if (shift != 0 && first + i + 1 < target.length) {
          target[first + i + 1] |= word >>> (64 - shift);
        }
      }
    }
  }

  /** Stands for all of a segment's records in {@link #segmentInRanges}. */
  private static final FixedBitSet EVERY_RECORD = new FixedBitSet(0);

  /** A segment's records within every range: {@link #EVERY_RECORD}, null for none, or their bits. */
  private static FixedBitSet segmentInRanges(LeafReaderContext leaf, List<LongRange> ranges) throws IOException {
    FixedBitSet within = EVERY_RECORD;
    for (LongRange range : ranges) {
      PointValues points = leaf.reader().getPointValues(range.field());
      if (points == null) {
        return null;
      }
      PointValues.Relation whole = relation(points.getMinPackedValue(), points.getMaxPackedValue(), range);
      if (whole == PointValues.Relation.CELL_OUTSIDE_QUERY) {
        return null;
      }
      if (whole == PointValues.Relation.CELL_INSIDE_QUERY && points.getDocCount() == leaf.reader().maxDoc()) {
        continue;
      }
      FixedBitSet bits = new FixedBitSet(leaf.reader().maxDoc());
      points.intersect(new RangeVisitor(bits, range));
      if (within == EVERY_RECORD) {
        within = bits;
      } else {
        within.and(bits);
      }
    }
    return within;
  }

  /** Where points between the packed bounds lie against the range. */
  private static PointValues.Relation relation(byte[] min, byte[] max, LongRange range) {
    long low = LongPoint.decodeDimension(min, 0);
    long high = LongPoint.decodeDimension(max, 0);
    if (high < range.lower() || low > range.upper()) {
      return PointValues.Relation.CELL_OUTSIDE_QUERY;
    }
    return low >= range.lower() && high <= range.upper() ? PointValues.Relation.CELL_INSIDE_QUERY
        : PointValues.Relation.CELL_CROSSES_QUERY;
  }

  /** Marks a segment's documents whose single long point lies in the range. */
  private record RangeVisitor(FixedBitSet bits, LongRange range) implements PointValues.IntersectVisitor {

    @Override
    public void visit(int doc) {
      bits.set(doc);
    }

    /** A cell inside the range, often as a run of documents: the bit set takes it a word at a time. */
    @Override
    public void visit(DocIdSetIterator docs) throws IOException {
      bits.or(docs);
    }

    @Override
    public void visit(int doc, byte[] packed) {
      long value = LongPoint.decodeDimension(packed, 0);
      if (value >= range.lower() && value <= range.upper()) {
        bits.set(doc);
      }
    }

    @Override
    public PointValues.Relation compare(byte[] min, byte[] max) {
      return relation(min, max, range);
    }
  }

  /** A conjunction's long-range clauses on single-valued doc-values fields, and all its other clauses as one query. */
  private record Conjunction(List<LongRange> ranges, Query rest) {

    /** The query's parts when it is a conjunction (or a single clause), or null. */
    static Conjunction of(Query query, IndexSchema schema) {
      if (query instanceof PlainConjunctionQuery plain) {
        if (!isLongColumn(RecordFields.START, schema) || !isLongColumn(RecordFields.END, schema)) {
          return of(plain.standard(), schema);
        }
        List<LongRange> ranges = new ArrayList<>(2);
        if (plain.endFrom() != Long.MIN_VALUE) {
          ranges.add(new LongRange(RecordFields.END, plain.endFrom(), Long.MAX_VALUE));
        }
        if (plain.startTo() != Long.MAX_VALUE) {
          ranges.add(new LongRange(RecordFields.START, Long.MIN_VALUE, plain.startTo()));
        }
        return new Conjunction(ranges, plain.terms());
      }
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
      return new Conjunction(ranges, filterConjunction(others));
    }
  }

  /** The clauses as one query, each a filter: kept where they are all term queries ({@link #KEPT_TERM_CONJUNCTIONS}). */
  static Query filterConjunction(List<Query> clauses) {
    if (clauses.isEmpty()) {
      return new MatchAllDocsQuery();
    }
    if (clauses.size() == 1) {
      return clauses.get(0);
    }
    TermClauses terms = TermClauses.of(clauses);
    Query kept = terms == null ? null : KEPT_TERM_CONJUNCTIONS.get(terms);
    if (kept != null) {
      return kept;
    }
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    for (Query clause : clauses) {
      all.add(clause, BooleanClause.Occur.FILTER);
    }
    Query built = all.build();
    return terms == null ? built : KEPT_TERM_CONJUNCTIONS.keep(terms, built);
  }

  /**
   * Conjunctions of term queries built before, by their terms' instances: a series query's terms
   * are the same instances at every request ({@link PlainConjunction#term}), and so is then their
   * conjunction, whose hash Lucene keeps and which Solr's filter cache finds by identity instead of
   * comparing clause by clause (2 % of a one-hour {@code max}, perf, with building it anew).
   */
  private static final KeptByKey<TermClauses, Query> KEPT_TERM_CONJUNCTIONS = new KeptByKey<>(1024);

  /** Term queries compared by identity, in order. */
  private static final class TermClauses {
    private final Query[] terms;
    private final int hash;

    private TermClauses(Query[] terms) {
      this.terms = terms;
      int h = 1;
      for (Query term : terms) {
        h = h * 31 + System.identityHashCode(term);
      }
      this.hash = h;
    }

    /** The clauses where every one is a term query, else null. */
    static TermClauses of(List<Query> clauses) {
      Query[] terms = new Query[clauses.size()];
      for (int i = 0; i < terms.length; i++) {
        if (!(clauses.get(i) instanceof TermQuery)) {
          return null;
        }
        terms[i] = clauses.get(i);
      }
      return new TermClauses(terms);
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof TermClauses that) || that.hash != hash || that.terms.length != terms.length) {
        return false;
      }
      for (int i = 0; i < terms.length; i++) {
        if (that.terms[i] != terms[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static LongRange longRange(Query query, IndexSchema schema) {
    if (query instanceof IndexOrDocValuesQuery either) { // Solr's range on a field with points and doc values
      query = either.getIndexQuery();
    }
    if (!(query instanceof PointRangeQuery range) || range.getNumDims() != 1 || range.getBytesPerDim() != Long.BYTES) {
      return null;
    }
    if (!isLongColumn(range.getField(), schema)) {
      return null;
    }
    return new LongRange(range.getField(), LongPoint.decodeDimension(range.getLowerPoint(), 0),
        LongPoint.decodeDimension(range.getUpperPoint(), 0));
  }

  /** A single-valued long field with points and doc values: its ranges read either way. */
  private static boolean isLongColumn(String name, IndexSchema schema) {
    SchemaField field = schema.getFieldOrNull(name);
    return field != null && field.indexed() && field.getType() instanceof PointField && field.hasDocValues()
        && !field.multiValued() && field.getType().getNumberType() == NumberType.LONG;
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
