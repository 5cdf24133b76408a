package io.chronix.analysis.promql.ast;

/**
 * {@code expr[range:step]}: the inner expression evaluated at step-aligned times in
 * (t - range, t], giving a range vector.
 *
 * @param stepMillis 0 for the default evaluation interval
 */
public record SubqueryExpr(Expr expr, long rangeMillis, long stepMillis, long offsetMillis, AtModifier at,
    Position position) implements Expr {

  @Override
  public ValueType type() {
    return ValueType.MATRIX;
  }

  public SubqueryExpr withOffset(long millis, Position extended) {
    return new SubqueryExpr(expr, rangeMillis, stepMillis, millis, at, extended);
  }

  public SubqueryExpr withAt(AtModifier modifier, Position extended) {
    return new SubqueryExpr(expr, rangeMillis, stepMillis, offsetMillis, modifier, extended);
  }
}
