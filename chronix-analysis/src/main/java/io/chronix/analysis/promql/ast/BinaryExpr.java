package io.chronix.analysis.promql.ast;

/**
 * A binary operation; {@code matching} is null unless both sides are instant vectors.
 * {@code returnBool}: comparisons yield 0/1 instead of filtering.
 */
public record BinaryExpr(BinaryOp op, Expr lhs, Expr rhs, VectorMatching matching, boolean returnBool,
    Position position) implements Expr {

  @Override
  public ValueType type() {
    return lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR ? ValueType.SCALAR : ValueType.VECTOR;
  }
}
