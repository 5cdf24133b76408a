package io.chronix.analysis.promql.ast;

/** A PromQL expression. Immutable; modifiers such as offset produce new nodes. */
public sealed interface Expr
    permits NumberLiteral, StringLiteral, VectorSelector, MatrixSelector, SubqueryExpr, Call,
        AggregateExpr, BinaryExpr, UnaryExpr, ParenExpr {

  ValueType type();

  Position position();
}
