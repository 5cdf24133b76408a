package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.schema.StrField;
import org.apache.solr.search.QParser;

/**
 * The query most series queries are: {@code field:"value"} terms on string fields, {@code start:}
 * and {@code end:}, joined by {@code AND}. Read here in one pass, each term built by its field type
 * as Solr's parser builds it, because the general parser cost a sixth of a whole-series {@code max}
 * (its token machine and the regular expression that finds the time range). Anything else (other
 * operators, parentheses, escapes outside quotes, wildcards, text or numeric fields, local
 * parameters) is not a plain conjunction, and Solr's parser reads it: {@link #parse} answers null.
 */
final class PlainConjunction {

  private final Query query;
  private final TimeRangeQuery timeRange;

  private PlainConjunction(Query query, TimeRangeQuery timeRange) {
    this.query = query;
    this.timeRange = timeRange;
  }

  /**
   * The query: as Solr's default parser would build it, or where it has {@code start:} or
   * {@code end:}, a {@link PlainConjunctionQuery} that builds that only when asked.
   */
  Query query() {
    return query;
  }

  /** The time range, and the query's text with start: and end: rewritten as {@link TimeRangeQuery} does. */
  TimeRangeQuery timeRange() {
    return timeRange;
  }

  /**
   * @param parser a parser of the request, handed to the field types as Solr's parser hands itself
   * @return null where the query is not a plain conjunction
   * @throws org.apache.solr.common.SolrException (400) for a bad start: or end:, as {@link TimeRangeQuery}
   */
  static PlainConjunction parse(String q, Date now, IndexSchema schema, QParser parser) {
    Reader reader = new Reader(q);
    List<Object> clauses = new ArrayList<>();
    StringBuilder text = new StringBuilder(q.length() + 16);
    Long from = null;
    Long to = null;
    reader.skipSpace();
    do {
      if (text.length() > 0) {
        text.append(" AND ");
      }
      if (reader.skip("*:*")) {
        clauses.add(new MatchAllDocsQuery());
        text.append("*:*");
        continue;
      }
      int termStart = reader.at;
      String field = reader.fieldName();
      if (field == null) {
        return null;
      }
      boolean isStart = field.equals(RecordFields.START);
      if (isStart || field.equals(RecordFields.END)) {
        String raw = reader.instant();
        if (raw == null) {
          return null;
        }
        long millis = TimeRangeQuery.parseInstant(field, raw, now);
        if (isStart ? from != null : to != null) {
          throw TimeRangeQuery.namedTwice(field);
        }
        if (isStart) {
          from = millis;
        } else {
          to = millis;
        }
        clauses.add(new PlainConjunctionQuery.Bound(isStart, millis));
        text.append(TimeRangeQuery.overlapFilter(isStart, millis));
        continue;
      }
      Query term = stringTerm(field, reader, schema, parser);
      if (term == null) {
        return null;
      }
      clauses.add(term);
      text.append(q, termStart, reader.at);
    } while (reader.and());
    if (!reader.atEnd() || clauses.isEmpty()) {
      return null;
    }
    boolean bounded = from != null || to != null;
    return new PlainConjunction(bounded ? new PlainConjunctionQuery(clauses, schema) : termsOnly(clauses),
        new TimeRangeQuery(text.toString(), TimeRangeQuery.range(from, to), bounded));
  }

  /** Clauses without a range, as Solr's parser joins them. */
  private static Query termsOnly(List<Object> clauses) {
    List<Query> queries = new ArrayList<>(clauses.size());
    for (Object clause : clauses) {
      queries.add((Query) clause);
    }
    return asParsed(queries);
  }

  /** Clauses as Solr's default parser joins an {@code AND} of them: one alone as it is. */
  static Query asParsed(List<Query> clauses) {
    if (clauses.size() == 1) {
      return clauses.get(0);
    }
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    for (Query clause : clauses) {
      all.add(clause, BooleanClause.Occur.MUST);
    }
    return all.build();
  }

  /**
   * A filter query ({@code fq}) of the same terms, each one required or, led by a minus, excluded
   * ({@code -type:string}, which every label listing over all series sends), as Solr's default
   * parser builds it; null for anything else. In a filter {@code start:} and {@code end:} are
   * plain fields, left to Solr's parser. Solr's parser of each listing's filter was a sixteenth of
   * listing label names (docs/benchmarks.md).
   */
  static Query filter(String fq, IndexSchema schema, QParser parser) {
    Reader reader = new Reader(fq);
    List<BooleanClause> clauses = new ArrayList<>();
    reader.skipSpace();
    do {
      boolean excluded = reader.minus();
      String field = reader.fieldName();
      if (field == null || field.equals(RecordFields.START) || field.equals(RecordFields.END)) {
        return null;
      }
      Query term = stringTerm(field, reader, schema, parser);
      if (term == null) {
        return null;
      }
      clauses.add(new BooleanClause(term, excluded ? BooleanClause.Occur.MUST_NOT : BooleanClause.Occur.MUST));
    } while (reader.and());
    if (!reader.atEnd() || clauses.isEmpty()) {
      return null;
    }
    if (clauses.size() == 1 && clauses.get(0).getOccur() == BooleanClause.Occur.MUST) {
      return clauses.get(0).getQuery();
    }
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    clauses.forEach(all::add);
    return all.build();
  }

  /** The term of an indexed string field whose value the reader is at, as its field type builds it; else null. */
  private static Query stringTerm(String field, Reader reader, IndexSchema schema, QParser parser) {
    SchemaField sf = schema.getFieldOrNull(field);
    if (sf == null || !(sf.getType() instanceof StrField) || !sf.indexed()) {
      return null;
    }
    String value = reader.value();
    if (value == null) {
      return null;
    }
    // Solr's own string type indexes a value as its UTF-8 bytes: its term, without the field type's
    // builders and virtual calls (a quarter of reading a four-attribute series query's q)
    return sf.getType().getClass() == StrField.class ? term(field, value) : sf.getType().getFieldQuery(parser, sf, value);
  }

  /** Term queries kept at most: a fleet's dashboards ask a few thousand names and hosts. */
  static final int MAX_TERMS = 4096;

  /**
   * The term queries of string fields made before, by field and value: a query is immutable, and
   * each new one costs its building and Lucene's look at its caller in the constructor (2 % of a
   * one-hour {@code max}, perf); the same instances also let {@link RecordDocs} keep the
   * conjunction of a series' terms, and Solr's filter cache find it by identity.
   */
  private static final KeptByKey<TermKey, TermQuery> TERMS = new KeptByKey<>(MAX_TERMS);

  /** A string field's term query for the value, the same instance as before where it is kept. */
  static TermQuery term(String field, String value) {
    TermKey key = new TermKey(field, value);
    TermQuery kept = TERMS.get(key);
    return kept != null ? kept : TERMS.keep(key, new TermQuery(new Term(field, value)));
  }

  /** How many term queries are kept now. */
  static int keptTerms() {
    return TERMS.size();
  }

  /** A field and a value; equals and hashCode written out, as the quick compiler inlines them. */
  private static final class TermKey {
    private final String field;
    private final String value;

    TermKey(String field, String value) {
      this.field = field;
      this.value = value;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof TermKey key && key.field.equals(field) && key.value.equals(value);
    }

    @Override
    public int hashCode() {
      return field.hashCode() * 31 + value.hashCode();
    }
  }

  /** The query text, read left to right; each method answers null (or false) where it does not fit. */
  private static final class Reader {

    private final String q;
    private int at;

    Reader(String q) {
      this.q = q;
    }

    boolean atEnd() {
      return at == q.length();
    }

    void skipSpace() {
      while (at < q.length() && Character.isWhitespace(q.charAt(at))) {
        at++;
      }
    }

    boolean skip(String literal) {
      if (q.startsWith(literal, at) && endsTerm(at + literal.length())) {
        at += literal.length();
        return true;
      }
      return false;
    }

    /** Steps over a minus that leads a field's name. */
    boolean minus() {
      if (at + 1 < q.length() && q.charAt(at) == '-' && isWordChar(q.charAt(at + 1))) {
        at++;
        return true;
      }
      return false;
    }

    /** Letters, digits and underscores before a colon; not led by an underscore (Solr's _query_, _val_). */
    String fieldName() {
      int start = at;
      while (at < q.length() && isWordChar(q.charAt(at))) {
        at++;
      }
      if (at == start || at == q.length() || q.charAt(at) != ':' || q.charAt(start) == '_') {
        return null;
      }
      String field = q.substring(start, at);
      at++;
      return field;
    }

    /** A start: or end: value as {@link TimeRangeQuery} reads it, quotes kept; not a range. */
    String instant() {
      int start = at;
      if (at < q.length() && q.charAt(at) == '"') {
        int close = q.indexOf('"', at + 1);
        if (close < 0) {
          return null;
        }
        at = close + 1;
      } else {
        while (at < q.length() && !Character.isWhitespace(q.charAt(at)) && "()[]{}\"".indexOf(q.charAt(at)) < 0) {
          at++;
        }
      }
      return at > start && endsTerm(at) ? q.substring(start, at) : null;
    }

    /**
     * A quoted value, or a bare word of letters, digits, '_', '.' and inner '-'. In quotes a
     * backslash keeps the character after it, as Solr's parser reads a phrase: Windows counters
     * and JMX names hold backslashes, and a sixth of P4's series went through the general parser
     * for them. A unicode escape (a backslash, u and four hex digits) is left to Solr's parser.
     */
    String value() {
      if (at < q.length() && q.charAt(at) == '"') {
        return quoted();
      }
      int start = at;
      while (at < q.length() && (isWordChar(q.charAt(at)) || q.charAt(at) == '.' || at > start && q.charAt(at) == '-')) {
        at++;
      }
      if (at == start || !endsTerm(at)) {
        return null;
      }
      String value = q.substring(start, at);
      // the parser's operators and keywords are not values
      return value.equals("AND") || value.equals("OR") || value.equals("NOT") || value.equals("TO") ? null : value;
    }

    private String quoted() {
      StringBuilder unescaped = null;
      int run = at + 1;
      int i = run;
      while (i < q.length() && q.charAt(i) != '"') {
        if (q.charAt(i) == '\\') {
          if (i + 1 == q.length() || q.charAt(i + 1) == 'u') {
            return null;
          }
          if (unescaped == null) {
            unescaped = new StringBuilder(q.length() - at);
          }
          unescaped.append(q, run, i).append(q.charAt(i + 1));
          i += 2;
          run = i;
        } else {
          i++;
        }
      }
      if (i == q.length() || !endsTerm(i + 1)) {
        return null;
      }
      String value = unescaped == null ? q.substring(at + 1, i) : unescaped.append(q, run, i).toString();
      at = i + 1;
      return value;
    }

    /** Whitespace, AND, whitespace, and a next term: false at the end, or where something else follows. */
    boolean and() {
      int before = at;
      skipSpace();
      if (at > before && q.startsWith("AND", at) && at + 3 < q.length() && Character.isWhitespace(q.charAt(at + 3))) {
        at += 3;
        skipSpace();
        if (!atEnd()) {
          return true;
        }
        at = before; // a trailing AND: Solr's parser refuses it with its own message
        return false;
      }
      at = before;
      skipSpace();
      return false;
    }

    private boolean endsTerm(int index) {
      return index == q.length() || Character.isWhitespace(q.charAt(index));
    }

    private static boolean isWordChar(char c) {
      return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }
  }
}
