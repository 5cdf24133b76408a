package io.chronix.solr.query;

import java.util.Date;
import org.apache.lucene.search.Query;
import org.apache.solr.common.params.CommonParams;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SyntaxError;

/**
 * A series query's {@code q}: the records it selects (a Lucene query, its {@code start:} and
 * {@code end:} rewritten to record-overlap filters) and its time range. A plain conjunction is read
 * by {@link PlainConjunction}; every other query by Solr's parser of the request.
 */
public final class RecordSelection {

  private final TimeRangeQuery timeRange;
  private final QParser parser;
  private final Query query;

  private RecordSelection(TimeRangeQuery timeRange, QParser parser, Query query) {
    this.timeRange = timeRange;
    this.parser = parser;
    this.query = query;
  }

  /**
   * @throws SyntaxError where Solr's parser refuses the query
   * @throws org.apache.solr.common.SolrException (400) for a bad start: or end:
   */
  public static RecordSelection parse(String q, Date now, SolrQueryRequest request) throws SyntaxError {
    // Solr's standard parser unless the query's local parameters name another (not defType, as before)
    PlainConjunction plain = PlainConjunction.parse(q, now, request.getSchema(), QParser.getParser(q, request));
    if (plain != null) {
      // the request's parser holds the rewritten text, should anything parse it again
      return new RecordSelection(plain.timeRange(), QParser.getParser(plain.timeRange().query(), request),
          plain.query());
    }
    TimeRangeQuery timeRange = TimeRangeQuery.parse(q, now);
    QParser parser = QParser.getParser(timeRange.query(), request);
    return new RecordSelection(timeRange, parser, parser.getQuery());
  }

  /**
   * A filter query ({@code fq}) of the request: plain terms read in one pass
   * ({@link PlainConjunction#filter}, built with {@code parser} as Solr's parser builds them), else
   * Solr's parser of the request.
   */
  public static Query filter(String fq, SolrQueryRequest request, QParser parser) throws SyntaxError {
    Query plain = PlainConjunction.filter(fq, request.getSchema(), parser);
    return plain != null ? plain : QParser.getParser(fq, request).getQuery();
  }

  /** The request's q, or all records where it has none. */
  public static String of(SolrQueryRequest request) {
    return request.getParams().get(CommonParams.Q, "*:*");
  }

  public TimeRangeQuery timeRange() {
    return timeRange;
  }

  public TimeRange range() {
    return timeRange.range();
  }

  /** The request's parser of the rewritten text, for what else the request parses with it. */
  public QParser parser() {
    return parser;
  }

  public Query query() {
    return query;
  }
}
