package io.chronix.analysis.promql.ast;

public record ParenExpr(Expr expr, Position position) implements Expr {

  @Override
  public ValueType type() {
    return expr.type();
  }
}
