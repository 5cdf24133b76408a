package io.chronix.analysis.promql.ast;

public record StringLiteral(String value, Position position) implements Expr {

  @Override
  public ValueType type() {
    return ValueType.STRING;
  }
}
