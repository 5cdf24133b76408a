package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.AggregateOp;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.VectorSelector;
import java.util.Set;

/**
 * Whether every step of a range query depends only on samples at or before that step and not on
 * where the query starts or ends: then the steps of two ranges that share a step grid are the same
 * wherever they overlap, and a range can be answered in parts ({@link RangeCache}). Not so with an
 * {@code @} modifier (a fixed time, or the query's start or end), a negative offset (samples after
 * the step), the functions {@code start()}, {@code end()} and {@code range()}, a chronix
 * transformation (one answer over the whole range), or {@code limitk} (which series it keeps is
 * not tied to its step's samples alone).
 */
final class StepLocal {

  private static final Set<String> RANGE_FUNCTIONS = Set.of("start", "end", "range");

  private StepLocal() {}

  static boolean test(Expr expr) {
    if (expr instanceof VectorSelector selector) {
      return selector.at() == null && selector.offsetMillis() >= 0;
    }
    if (expr instanceof MatrixSelector matrix) {
      return test(matrix.selector());
    }
    if (expr instanceof SubqueryExpr subquery) {
      return subquery.at() == null && subquery.offsetMillis() >= 0 && test(subquery.expr());
    }
    if (expr instanceof Call call) {
      if (RANGE_FUNCTIONS.contains(call.function().name()) || ChronixCalls.isTransformation(call)) {
        return false;
      }
      for (Expr arg : call.args()) {
        if (!test(arg)) {
          return false;
        }
      }
      return true;
    }
    if (expr instanceof AggregateExpr aggregate) {
      return aggregate.op() != AggregateOp.LIMITK && test(aggregate.expr())
          && (aggregate.param() == null || test(aggregate.param()));
    }
    if (expr instanceof BinaryExpr binary) {
      return test(binary.lhs()) && test(binary.rhs());
    }
    if (expr instanceof UnaryExpr unary) {
      return test(unary.expr());
    }
    if (expr instanceof ParenExpr paren) {
      return test(paren.expr());
    }
    return true; // number and string literals
  }
}
