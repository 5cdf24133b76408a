package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.AtModifier;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.model.LabelMatcher;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which series a query reads and for which time span, worked out from the syntax tree before
 * evaluation (as Prometheus' populateSeries does), so that all selectors can be fetched at once
 * and in parallel. A selector used twice is fetched once for the union of its spans.
 */
final class FetchPlan {

  /**
   * One selector's fetch: matchers and [minTime, maxTime] in epoch milliseconds. {@code latestOnly}:
   * the selector is only evaluated at one time, as an instant selector, which needs no more than
   * each series' latest sample in the span ({@link SeriesSource#selectLatest}).
   */
  record Fetch(List<LabelMatcher> matchers, long minTime, long maxTime, boolean latestOnly) {}

  private final long queryStart;
  private final long queryEnd;
  private final long lookback;
  private final Map<String, Fetch> fetches = new LinkedHashMap<>();

  private FetchPlan(long queryStart, long queryEnd, long lookback) {
    this.queryStart = queryStart;
    this.queryEnd = queryEnd;
    this.lookback = lookback;
  }

  static Collection<Fetch> of(Expr expr, long start, long end, long lookback) {
    FetchPlan plan = new FetchPlan(start, end, lookback);
    plan.visit(expr, start, end);
    return plan.fetches.values();
  }

  /** Visits an expression evaluated at times within [from, to]. */
  private void visit(Expr expr, long from, long to) {
    if (expr instanceof VectorSelector selector) {
      long[] times = shift(selector.at(), selector.offsetMillis(), from, to);
      need(selector.matchers(), times[0] - lookback + 1, times[1], times[0] == times[1]);
    } else if (expr instanceof MatrixSelector matrix) {
      VectorSelector selector = matrix.selector();
      long[] times = shift(selector.at(), selector.offsetMillis(), from, to);
      need(selector.matchers(), times[0] - matrix.rangeMillis() + 1, times[1], false);
    } else if (expr instanceof SubqueryExpr subquery) {
      long[] times = shift(subquery.at(), subquery.offsetMillis(), from, to);
      visit(subquery.expr(), times[0] - subquery.rangeMillis(), times[1]);
    } else if (expr instanceof Call call) {
      for (Expr arg : call.args()) {
        visit(arg, from, to);
      }
    } else if (expr instanceof AggregateExpr aggregate) {
      if (aggregate.param() != null) {
        visit(aggregate.param(), from, to);
      }
      visit(aggregate.expr(), from, to);
    } else if (expr instanceof BinaryExpr binary) {
      visit(binary.lhs(), from, to);
      visit(binary.rhs(), from, to);
    } else if (expr instanceof UnaryExpr unary) {
      visit(unary.expr(), from, to);
    } else if (expr instanceof ParenExpr paren) {
      visit(paren.expr(), from, to);
    }
  }

  private long[] shift(AtModifier at, long offset, long from, long to) {
    if (at != null) {
      long time = at.resolve(queryStart, queryEnd) - offset;
      return new long[] {time, time};
    }
    return new long[] {from - offset, to - offset};
  }

  /** A selector used twice is read for the union of its spans: latest only where both uses are the same instant. */
  private void need(List<LabelMatcher> matchers, long minTime, long maxTime, boolean latestOnly) {
    fetches.merge(QueryContext.key(matchers), new Fetch(matchers, minTime, maxTime, latestOnly),
        (a, b) -> new Fetch(a.matchers(), Math.min(a.minTime(), b.minTime()), Math.max(a.maxTime(), b.maxTime()),
            a.latestOnly() && b.latestOnly() && a.minTime() == b.minTime() && a.maxTime() == b.maxTime()));
  }
}
