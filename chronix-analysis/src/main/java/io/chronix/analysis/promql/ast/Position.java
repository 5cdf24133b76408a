package io.chronix.analysis.promql.ast;

/**
 * Where an expression stands in the query text: character offsets [start, end). Errors and
 * annotations name it as {@code line:column} of the start, as Prometheus does.
 */
public record Position(int start, int end) {

  public static final Position NONE = new Position(0, 0);

  /** "line:column" of the start, both counted from 1. */
  public String describe(String query) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(start, query.length()); i++) {
      if (query.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return line + ":" + column;
  }

  public Position to(Position other) {
    return new Position(Math.min(start, other.start), Math.max(end, other.end));
  }
}
