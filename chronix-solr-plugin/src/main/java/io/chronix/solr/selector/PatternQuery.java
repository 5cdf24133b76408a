package io.chronix.solr.selector;

import java.io.IOException;
import java.util.regex.Pattern;
import org.apache.lucene.index.FilteredTermsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.util.AttributeSource;
import org.apache.lucene.util.BytesRef;

/**
 * The terms of a field that a PromQL regular expression matches in full. Lucene's own RegexpQuery
 * has a syntax of its own; this one tests each term of the field with the pattern the PromQL
 * parser compiled, so Solr filters exactly as the engine does. Works on any index, the in-memory
 * one of buffered series included.
 */
public final class PatternQuery extends MultiTermQuery {

  private final Pattern pattern;

  PatternQuery(String field, Pattern pattern) {
    super(field, CONSTANT_SCORE_BLENDED_REWRITE);
    this.pattern = pattern;
  }

  @Override
  protected TermsEnum getTermsEnum(Terms terms, AttributeSource attributes) throws IOException {
    return new FilteredTermsEnum(terms.iterator(), false) {
      @Override
      protected AcceptStatus accept(BytesRef term) {
        return matches(term.utf8ToString()) ? AcceptStatus.YES : AcceptStatus.NO;
      }
    };
  }

  /** Whether a term of the field is one the query matches. */
  public boolean matches(String term) {
    return pattern.matcher(term).matches();
  }

  @Override
  public void visit(QueryVisitor visitor) {
    if (visitor.acceptField(field)) {
      visitor.visitLeaf(this);
    }
  }

  @Override
  public String toString(String defaultField) {
    return field + ":~/" + pattern.pattern() + "/";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PatternQuery that && field.equals(that.field) && pattern.pattern().equals(that.pattern.pattern());
  }

  @Override
  public int hashCode() {
    return 31 * field.hashCode() + pattern.pattern().hashCode();
  }

  Term term() {
    return new Term(field, pattern.pattern());
  }
}
