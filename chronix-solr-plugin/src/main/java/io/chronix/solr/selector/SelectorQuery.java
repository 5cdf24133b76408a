package io.chronix.solr.selector;

import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.parser.ParseException;
import io.chronix.analysis.promql.parser.PromQlParser;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.PrometheusNames;
import io.chronix.core.series.ValueType;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.solr.common.SolrException;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.schema.StrField;
import org.apache.solr.search.QParser;

/**
 * A PromQL series selector ({@code cpu_usage_idle{host=~"web.*"}}) as a Lucene query on the record
 * fields, so that Solr reads only the records of matching series (docs/promql.md). Labels map to
 * fields as {@link PrometheusNames} defines; string and array series are left out, PromQL only has numbers.
 * Matchers on typed attributes that Solr cannot test as text are left to the engine, which checks
 * every matcher again on what it gets.
 */
public final class SelectorQuery {

  private SelectorQuery() {}

  /** @throws SolrException 400 for a selector that is not valid PromQL */
  public static Query parse(String selector, QParser parser) {
    VectorSelector parsed;
    try {
      parsed = PromQlParser.parseSelector(selector);
    } catch (ParseException e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, "series selector '" + selector + "': " + e.getMessage(), e);
    }
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    boolean positive = false;
    for (LabelMatcher matcher : parsed.matchers()) {
      positive |= add(query, matcher, parser);
    }
    query.add(new TermQuery(new Term(RecordFields.TYPE, ValueType.STRING.typeName())), BooleanClause.Occur.MUST_NOT);
    query.add(new TermQuery(new Term(RecordFields.TYPE, ValueType.ARRAY.typeName())), BooleanClause.Occur.MUST_NOT);
    if (!positive) {
      query.add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
    }
    return query.build();
  }

  /** Adds a matcher's clause; true if it is a positive (filtering) one. */
  private static boolean add(BooleanQuery.Builder query, LabelMatcher matcher, QParser parser) {
    String field = PrometheusNames.fieldOf(matcher.name());
    IndexSchema schema = parser.getReq().getSchema();
    SchemaField schemaField = schema.getFieldOrNull(field);
    if (schemaField == null || !schemaField.indexed()) {
      // no record has such a field: the label is empty everywhere
      if (!matcher.matchesEmpty()) {
        query.add(new MatchNoDocsQuery(), BooleanClause.Occur.FILTER);
        return true;
      }
      return false;
    }
    if (!(schemaField.getType() instanceof StrField)) {
      if (matcher.type() == LabelMatcher.Type.EQUAL && !matcher.value().isEmpty()) {
        Query typed;
        try {
          typed = schemaField.getType().getFieldQuery(parser, schemaField, matcher.value());
        } catch (RuntimeException notOfThatType) {
          typed = new MatchNoDocsQuery();
        }
        query.add(typed, BooleanClause.Occur.FILTER);
        return true;
      }
      return false; // the engine filters these
    }
    Query exists = TermRangeQuery.newStringRange(field, null, null, true, true);
    switch (matcher.type()) {
      case EQUAL:
        if (matcher.value().isEmpty()) {
          query.add(exists, BooleanClause.Occur.MUST_NOT);
          return false;
        }
        query.add(new TermQuery(new Term(field, matcher.value())), BooleanClause.Occur.FILTER);
        return true;
      case NOT_EQUAL:
        if (matcher.value().isEmpty()) {
          query.add(exists, BooleanClause.Occur.FILTER);
          return true;
        }
        query.add(new TermQuery(new Term(field, matcher.value())), BooleanClause.Occur.MUST_NOT);
        return false;
      case REGEX: {
        Query matching = new PatternQuery(field, matcher.pattern());
        if (matcher.matchesEmpty()) {
          // a series without the label has the empty value, which matches too
          BooleanQuery.Builder missing = new BooleanQuery.Builder();
          missing.add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
          missing.add(exists, BooleanClause.Occur.MUST_NOT);
          BooleanQuery.Builder either = new BooleanQuery.Builder();
          either.add(matching, BooleanClause.Occur.SHOULD);
          either.add(missing.build(), BooleanClause.Occur.SHOULD);
          query.add(either.build(), BooleanClause.Occur.FILTER);
        } else {
          query.add(matching, BooleanClause.Occur.FILTER);
        }
        return true;
      }
      default: {
        query.add(new PatternQuery(field, matcher.pattern()), BooleanClause.Occur.MUST_NOT);
        if (matcher.pattern().matcher("").matches()) {
          // the empty value of a missing label matches the pattern, so such a series is excluded
          query.add(exists, BooleanClause.Occur.FILTER);
          return true;
        }
        return false;
      }
    }
  }
}
