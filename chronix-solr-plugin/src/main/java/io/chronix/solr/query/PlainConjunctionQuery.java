package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;

/**
 * A plain conjunction as {@link PlainConjunction} read it: its terms, and the record-overlap ranges
 * of its {@code start:} and {@code end:}. The Lucene query Solr's parser would build
 * ({@link #standard}) is built only when something asks for it; a series query's own reading
 * ({@link RecordDocs}) takes the terms and ranges as they are. Building the ranges as Solr's field
 * type builds them took three Lucene queries each, and Lucene's query constructor looks at its
 * caller's class every time: with the conjunction around them and {@link RecordDocs} picking them
 * apart again, 5 % of a one-hour {@code max} (perf, docs/benchmarks.md).
 *
 * <p>Where Lucene or Solr run it, it rewrites to the standard query; it equals another of the same
 * clauses in the same order on the same schema.
 */
final class PlainConjunctionQuery extends Query {

  /** A clause: a term (or all records) as built, or a range bound, in the order of the text. */
  private final Object[] clauses;
  private final IndexSchema schema;
  private final Query terms;
  private final long endFrom;
  private final long startTo;
  private volatile Query standard;

  /** A {@code start:} (the records ending at or after it) or an {@code end:} (those starting at or before it). */
  record Bound(boolean isStart, long millis) {}

  /**
   * @param clauses queries and {@link Bound}s, in the order of the text; at least one bound
   * @param schema the schema whose field types build the ranges
   */
  PlainConjunctionQuery(List<Object> clauses, IndexSchema schema) {
    this.clauses = clauses.toArray();
    this.schema = schema;
    List<Query> queries = new ArrayList<>(clauses.size());
    long endFrom = Long.MIN_VALUE;
    long startTo = Long.MAX_VALUE;
    boolean bounded = false;
    for (Object clause : clauses) {
      if (clause instanceof Bound bound) {
        bounded = true;
        if (bound.isStart()) {
          endFrom = bound.millis();
        } else {
          startTo = bound.millis();
        }
      } else {
        queries.add((Query) clause);
      }
    }
    if (!bounded) {
      throw new IllegalArgumentException("a conjunction without start: or end: is a plain Lucene query");
    }
    this.terms = RecordDocs.filterConjunction(queries);
    this.endFrom = endFrom;
    this.startTo = startTo;
  }

  /** The clauses that are not ranges, as one query (all records where there are none). */
  Query terms() {
    return terms;
  }

  /** The records' end at or after this ({@link Long#MIN_VALUE} where no {@code start:} was given). */
  long endFrom() {
    return endFrom;
  }

  /** The records' start at or before this ({@link Long#MAX_VALUE} where no {@code end:} was given). */
  long startTo() {
    return startTo;
  }

  /** The query as Solr's default parser builds it from the rewritten text. */
  Query standard() {
    Query built = standard;
    if (built == null) {
      built = build();
      standard = built;
    }
    return built;
  }

  private Query build() {
    List<Query> all = new ArrayList<>(clauses.length);
    for (Object clause : clauses) {
      if (clause instanceof Bound bound) {
        SchemaField span = schema.getField(bound.isStart() ? RecordFields.END : RecordFields.START);
        String millis = Long.toString(bound.millis());
        // the field types of points build their ranges without the parser
        all.add(span.getType().getRangeQuery(null, span, bound.isStart() ? millis : null,
            bound.isStart() ? null : millis, true, true));
      } else {
        all.add((Query) clause);
      }
    }
    return PlainConjunction.asParsed(all);
  }

  @Override
  public Query rewrite(IndexSearcher searcher) {
    return standard();
  }

  @Override
  public void visit(QueryVisitor visitor) {
    standard().visit(visitor);
  }

  @Override
  public String toString(String field) {
    return standard().toString(field);
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && ((PlainConjunctionQuery) other).schema == schema
        && Arrays.equals(((PlainConjunctionQuery) other).clauses, clauses);
  }

  @Override
  public int hashCode() {
    return classHash() * 31 + Arrays.hashCode(clauses) + System.identityHashCode(schema);
  }
}
