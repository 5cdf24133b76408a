package io.chronix.analysis.promql.ast;

public record NumberLiteral(double value, Position position) implements Expr {

  @Override
  public ValueType type() {
    return ValueType.SCALAR;
  }
}
