package io.chronix.analysis.promql.ast;

public record ParenExpr(Expr expr, Position position) implements Expr {

  @Override
  public ValueType type() {
    return expr.type();
  }

  /** The expression inside any number of parentheses: {@code (("a"))} is the literal for Prometheus. */
  public static Expr unwrap(Expr expr) {
    Expr e = expr;
    while (e instanceof ParenExpr paren) {
      e = paren.expr();
    }
    return e;
  }
}
