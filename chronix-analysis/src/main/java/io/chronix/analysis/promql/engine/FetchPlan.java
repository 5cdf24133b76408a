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
   * each series' latest sample in the span ({@link SeriesSource#selectLatest}). {@code steps}, or
   * null: the selector is only evaluated as an instant selector at the query's steps, shifted by
   * its offset, which need no more than each series' latest sample at or before each of them
   * ({@link SeriesSource#selectSteps}).
   */
  record Fetch(List<LabelMatcher> matchers, long minTime, long maxTime, boolean latestOnly, Steps steps) {}

  /** Evaluation times: {@code first}, {@code first + interval}, ... up to a fetch's maxTime. */
  record Steps(long first, long interval) {}

  private final long queryStart;
  private final long queryEnd;
  private final long interval;
  private final long lookback;
  private final Map<String, Fetch> fetches = new LinkedHashMap<>();

  private FetchPlan(long queryStart, long queryEnd, long interval, long lookback) {
    this.queryStart = queryStart;
    this.queryEnd = queryEnd;
    this.interval = interval;
    this.lookback = lookback;
  }

  /** @param interval the query's step (any positive value for an instant query) */
  static Collection<Fetch> of(Expr expr, long start, long end, long interval, long lookback) {
    FetchPlan plan = new FetchPlan(start, end, interval, lookback);
    plan.visit(expr, start, end, true);
    return plan.fetches.values();
  }

  /**
   * Visits an expression evaluated at times within [from, to]; {@code onGrid}: at the query's own
   * steps (a subquery's inner expression is evaluated at times of its own).
   */
  private void visit(Expr expr, long from, long to, boolean onGrid) {
    if (expr instanceof VectorSelector selector) {
      long[] times = shift(selector.at(), selector.offsetMillis(), from, to);
      boolean latestOnly = times[0] == times[1];
      Steps steps = onGrid && !latestOnly && selector.at() == null ? new Steps(times[0], interval) : null;
      need(selector.matchers(), times[0] - lookback + 1, times[1], latestOnly, steps);
    } else if (expr instanceof MatrixSelector matrix) {
      VectorSelector selector = matrix.selector();
      long[] times = shift(selector.at(), selector.offsetMillis(), from, to);
      need(selector.matchers(), times[0] - matrix.rangeMillis() + 1, times[1], false, null);
    } else if (expr instanceof SubqueryExpr subquery) {
      long[] times = shift(subquery.at(), subquery.offsetMillis(), from, to);
      visit(subquery.expr(), times[0] - subquery.rangeMillis(), times[1], false);
    } else if (expr instanceof Call call) {
      for (Expr arg : call.args()) {
        visit(arg, from, to, onGrid);
      }
    } else if (expr instanceof AggregateExpr aggregate) {
      if (aggregate.param() != null) {
        visit(aggregate.param(), from, to, onGrid);
      }
      visit(aggregate.expr(), from, to, onGrid);
    } else if (expr instanceof BinaryExpr binary) {
      visit(binary.lhs(), from, to, onGrid);
      visit(binary.rhs(), from, to, onGrid);
    } else if (expr instanceof UnaryExpr unary) {
      visit(unary.expr(), from, to, onGrid);
    } else if (expr instanceof ParenExpr paren) {
      visit(paren.expr(), from, to, onGrid);
    }
  }

  private long[] shift(AtModifier at, long offset, long from, long to) {
    if (at != null) {
      long time = at.resolve(queryStart, queryEnd) - offset;
      return new long[] {time, time};
    }
    return new long[] {from - offset, to - offset};
  }

  /**
   * A selector used twice is read for the union of its spans: latest only, or at the steps only,
   * where both uses are the same.
   */
  private void need(List<LabelMatcher> matchers, long minTime, long maxTime, boolean latestOnly, Steps steps) {
    fetches.merge(QueryContext.key(matchers), new Fetch(matchers, minTime, maxTime, latestOnly, steps), (a, b) -> {
      boolean sameSpan = a.minTime() == b.minTime() && a.maxTime() == b.maxTime();
      return new Fetch(a.matchers(), Math.min(a.minTime(), b.minTime()), Math.max(a.maxTime(), b.maxTime()),
          a.latestOnly() && b.latestOnly() && sameSpan,
          a.steps() != null && a.steps().equals(b.steps()) && sameSpan ? a.steps() : null);
    });
  }
}
