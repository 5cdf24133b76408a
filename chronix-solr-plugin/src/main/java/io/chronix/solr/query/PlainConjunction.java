package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
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

  /** The query as Solr's default parser would build it. */
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
    List<Query> clauses = new ArrayList<>();
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
        String filter = TimeRangeQuery.overlapFilter(isStart, millis);
        String spanField = isStart ? RecordFields.END : RecordFields.START;
        SchemaField span = schema.getField(spanField);
        String bound = Long.toString(millis);
        clauses.add(span.getType().getRangeQuery(parser, span, isStart ? bound : null, isStart ? null : bound,
            true, true));
        text.append(filter);
        continue;
      }
      SchemaField sf = schema.getFieldOrNull(field);
      if (sf == null || !(sf.getType() instanceof StrField) || !sf.indexed()) {
        return null;
      }
      String value = reader.value();
      if (value == null) {
        return null;
      }
      clauses.add(sf.getType().getFieldQuery(parser, sf, value));
      text.append(q, termStart, reader.at);
    } while (reader.and());
    if (!reader.atEnd() || clauses.isEmpty()) {
      return null;
    }
    Query query;
    if (clauses.size() == 1) {
      query = clauses.get(0);
    } else {
      BooleanQuery.Builder all = new BooleanQuery.Builder();
      for (Query clause : clauses) {
        all.add(clause, BooleanClause.Occur.MUST);
      }
      query = all.build();
    }
    return new PlainConjunction(query,
        new TimeRangeQuery(text.toString(), TimeRangeQuery.range(from, to), from != null || to != null));
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
