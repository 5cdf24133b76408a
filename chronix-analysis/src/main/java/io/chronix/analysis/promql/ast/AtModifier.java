package io.chronix.analysis.promql.ast;

/**
 * The {@code @} modifier of a selector or subquery: a fixed time, or the query's start or end
 * (resolved when the query runs).
 */
public record AtModifier(Kind kind, long millis) {

  public enum Kind { TIME, START, END }

  public static AtModifier at(long millis) {
    return new AtModifier(Kind.TIME, millis);
  }

  public static AtModifier start() {
    return new AtModifier(Kind.START, 0);
  }

  public static AtModifier end() {
    return new AtModifier(Kind.END, 0);
  }

  /** The evaluation time this modifier fixes, for a query running from start to end. */
  public long resolve(long queryStart, long queryEnd) {
    switch (kind) {
      case START:
        return queryStart;
      case END:
        return queryEnd;
      default:
        return millis;
    }
  }
}
