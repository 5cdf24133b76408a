package io.chronix.solr.analyze;

import io.chronix.analysis.Analysis;
import java.util.Objects;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;

/**
 * The filter {@code {!ANALYZE detect=...}}: it selects no records by itself (as a Lucene query it
 * matches everything); the series query component keeps only the series for which the analysis
 * holds.
 */
public final class AnalyzeQuery extends Query {

  private final Analysis analysis;
  private final String spec;

  public AnalyzeQuery(Analysis analysis, String spec) {
    this.analysis = analysis;
    this.spec = spec;
  }

  public Analysis analysis() {
    return analysis;
  }

  @Override
  public Query rewrite(IndexSearcher searcher) {
    return new MatchAllDocsQuery();
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "{!ANALYZE detect=" + spec + "}";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && spec.equals(((AnalyzeQuery) other).spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), spec);
  }
}
