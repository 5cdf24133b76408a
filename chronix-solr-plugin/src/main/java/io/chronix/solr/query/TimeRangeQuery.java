package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.util.Date;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.solr.common.SolrException;
import org.apache.solr.util.DateMathParser;

/**
 * Finds the {@code start:} and {@code end:} terms of a Chronix query and rewrites them into filters
 * on the records' own time spans: a record is wanted when it overlaps the range, i.e. its end is at
 * or after the query start and its start at or before the query end.
 *
 * <p>Values may be epoch milliseconds, ISO-8601 instants or Solr date math ({@code NOW-7DAYS}).
 * Range syntax ({@code start:[a TO b]}) is left alone and queries the record fields directly.
 */
public final class TimeRangeQuery {

  /**
   * A start: or end: term (groups 1 and 2), or what is passed over as it is: an escaped character,
   * or a quoted phrase, in which {@code start:} is text (a name may hold it) and a backslash
   * escapes the next character, as Solr's parser reads it.
   */
  private static final Pattern TERM = Pattern.compile("\\\\.|\"(?:[^\"\\\\]|\\\\.)*\""
      + "|(?<![\\w.\\\\])(start|end):(\"[^\"]*\"|[^\\s()\\[\\]{}\"]+)");

  private final String query;
  private final TimeRange range;
  private final boolean bounded;

  TimeRangeQuery(String query, TimeRange range, boolean bounded) {
    this.query = query;
    this.range = range;
    this.bounded = bounded;
  }

  public static TimeRangeQuery parse(String q, Date now) {
    Matcher matcher = TERM.matcher(q);
    StringBuilder rewritten = new StringBuilder();
    Long from = null;
    Long to = null;
    while (matcher.find()) {
      if (matcher.group(1) == null) {
        continue; // passed over: appended with the text after it
      }
      boolean isStart = matcher.group(1).equals(RecordFields.START);
      long millis = parseInstant(matcher.group(1), matcher.group(2), now);
      if (isStart) {
        if (from != null) {
          throw namedTwice(RecordFields.START);
        }
        from = millis;
      } else {
        if (to != null) {
          throw namedTwice(RecordFields.END);
        }
        to = millis;
      }
      matcher.appendReplacement(rewritten, Matcher.quoteReplacement(overlapFilter(isStart, millis)));
    }
    matcher.appendTail(rewritten);
    return new TimeRangeQuery(rewritten.toString(), range(from, to), from != null || to != null);
  }

  /** The range between a query's start and end, either of them absent (null). */
  static TimeRange range(Long from, Long to) {
    long fromMillis = from == null ? Long.MIN_VALUE : from;
    long toMillis = to == null ? Long.MAX_VALUE : to;
    if (fromMillis > toMillis) {
      throw badRequest("start " + fromMillis + " lies after end " + toMillis);
    }
    return new TimeRange(fromMillis, toMillis);
  }

  static SolrException namedTwice(String field) {
    return badRequest("the query names " + field + ": more than once");
  }

  /** The filter on the records' spans that stands for a query's start: (or end:) term. */
  static String overlapFilter(boolean isStart, long millis) {
    return isStart ? RecordFields.END + ":[" + millis + " TO *]" : RecordFields.START + ":[* TO " + millis + "]";
  }

  /** A {@code start:} or {@code end:} value (as written, quotes included) in epoch milliseconds. */
  static long parseInstant(String field, String raw, Date now) {
    String value = raw.startsWith("\"") ? raw.substring(1, raw.length() - 1) : raw;
    if (isEpochMillis(value)) {
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw badRequest(field + ":" + raw + " is out of range for epoch milliseconds");
      }
    }
    try {
      return DateMathParser.parseMath(now, value).getTime();
    } catch (SolrException | IllegalArgumentException | java.time.DateTimeException e) {
      throw badRequest(field + ":" + raw
          + " is neither epoch milliseconds, an ISO-8601 instant nor Solr date math (" + e.getMessage() + ")");
    }
  }

  /** Epoch milliseconds: digits, a minus before them allowed (a loop, not a regex matcher a clause). */
  private static boolean isEpochMillis(String value) {
    int first = value.startsWith("-") ? 1 : 0;
    if (value.length() == first) {
      return false;
    }
    for (int i = first; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  static SolrException badRequest(String message) {
    return new SolrException(SolrException.ErrorCode.BAD_REQUEST, message);
  }

  /** The query with start:/end: replaced by record-overlap filters. */
  public String query() {
    return query;
  }

  public TimeRange range() {
    return range;
  }

  /** Whether the query named a start or an end at all. */
  public boolean bounded() {
    return bounded;
  }
}
