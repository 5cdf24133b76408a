package io.chronix.analysis.promql.ast;

import java.util.List;

/**
 * {@code sum by (job) (expr)}, {@code topk(3, expr)}: {@code param} is the k, quantile, label
 * name or ratio of the operators that take one, else null.
 */
public record AggregateExpr(AggregateOp op, Expr expr, Expr param, List<String> grouping, boolean without,
    Position position) implements Expr {

  public AggregateExpr {
    grouping = List.copyOf(grouping);
  }

  @Override
  public ValueType type() {
    return ValueType.VECTOR;
  }
}
