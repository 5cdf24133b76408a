package io.chronix.analysis.promql.parser;

import io.chronix.analysis.promql.ast.Position;

/**
 * A query that is not valid PromQL. The message names where ("line:column") and what, as
 * Prometheus words it: {@code 1:14: parse error: unexpected right parenthesis ')'}.
 */
public final class ParseException extends RuntimeException {

  private final Position position;
  private final String problem;

  ParseException(String query, Position position, String problem) {
    super(position.describe(query) + ": parse error: " + problem);
    this.position = position;
    this.problem = problem;
  }

  public Position position() {
    return position;
  }

  /** The message without the position. */
  public String problem() {
    return problem;
  }
}
