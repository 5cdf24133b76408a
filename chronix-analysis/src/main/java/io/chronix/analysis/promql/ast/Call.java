package io.chronix.analysis.promql.ast;

import java.util.List;

/** A function call; {@code function} holds its signature (the parser checks arguments against it). */
public record Call(FunctionSignature function, List<Expr> args, Position position) implements Expr {

  public Call {
    args = List.copyOf(args);
  }

  @Override
  public ValueType type() {
    return function.returnType();
  }
}
