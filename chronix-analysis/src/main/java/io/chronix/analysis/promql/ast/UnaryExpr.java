package io.chronix.analysis.promql.ast;

/** {@code -expr} (or {@code +expr}, which changes nothing but the metric name's presence). */
public record UnaryExpr(boolean negate, Expr expr, Position position) implements Expr {

  @Override
  public ValueType type() {
    return expr.type();
  }
}
