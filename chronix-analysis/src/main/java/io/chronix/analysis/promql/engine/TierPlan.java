package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.VectorSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Which selectors of a range query a rollup tier answers exactly, worked out from the syntax tree
 * before anything is fetched (docs/lifecycle.md). The query's start and step must be multiples of
 * the tier, so that every evaluation time t is one; then a window (t - range, t] with range and
 * offset multiples of the tier is a union of the tier's windows, and the latest sample before t is
 * the last of the latest window. A selector is read from a tier when each of its uses allows it:
 * as the range of {@code min_over_time}, {@code max_over_time}, {@code sum_over_time},
 * {@code count_over_time}, {@code avg_over_time} or {@code last_over_time}, or as an instant
 * selector (any lookback: windows know their last sample's timestamp); never with {@code @}, in
 * a subquery (its own steps) or as the range of any other function (rate and increase need every
 * sample, for counter resets). Of the tiers every use allows, the coarsest is read.
 */
final class TierPlan {

  static final Set<String> FUNCTIONS = Set.of("min_over_time", "max_over_time", "sum_over_time", "count_over_time",
      "avg_over_time", "last_over_time");

  private final List<TierReader.Tier> candidates;
  /** Per selector: the tiers all its uses so far allow. */
  private final Map<String, List<TierReader.Tier>> allowed = new HashMap<>();
  private boolean inSubquery;

  private TierPlan(List<TierReader.Tier> candidates) {
    this.candidates = candidates;
  }

  /** The tier to read per selector ({@link QueryContext#key}); selectors not named read their samples. */
  static Map<String, TierReader.Tier> of(Expr expr, Grid grid, List<TierReader.Tier> tiers) {
    List<TierReader.Tier> candidates = new ArrayList<>();
    for (TierReader.Tier tier : tiers) {
      if (!grid.isInstant() && Math.floorMod(grid.start(), tier.millis()) == 0
          && grid.interval() % tier.millis() == 0) {
        candidates.add(tier);
      }
    }
    Map<String, TierReader.Tier> chosen = new HashMap<>();
    if (candidates.isEmpty()) {
      return chosen;
    }
    TierPlan plan = new TierPlan(candidates);
    plan.visit(expr);
    plan.allowed.forEach((key, usable) -> {
      if (!usable.isEmpty()) {
        chosen.put(key, usable.get(usable.size() - 1)); // tiers come finest first
      }
    });
    return chosen;
  }

  private void visit(Expr expr) {
    if (expr instanceof Call call && FUNCTIONS.contains(call.function().name())
        && ParenExpr.unwrap(call.args().get(0)) instanceof MatrixSelector matrix) {
      VectorSelector selector = matrix.selector();
      use(selector, tier -> selector.at() == null && Math.floorMod(selector.offsetMillis(), tier) == 0
          && matrix.rangeMillis() % tier == 0);
    } else if (expr instanceof VectorSelector selector) {
      use(selector, tier -> selector.at() == null && Math.floorMod(selector.offsetMillis(), tier) == 0);
    } else if (expr instanceof MatrixSelector matrix) {
      use(matrix.selector(), tier -> false);
    } else if (expr instanceof SubqueryExpr subquery) {
      boolean outer = inSubquery;
      inSubquery = true;
      visit(subquery.expr());
      inSubquery = outer;
    } else if (expr instanceof Call call) {
      call.args().forEach(this::visit);
    } else if (expr instanceof AggregateExpr aggregate) {
      if (aggregate.param() != null) {
        visit(aggregate.param());
      }
      visit(aggregate.expr());
    } else if (expr instanceof BinaryExpr binary) {
      visit(binary.lhs());
      visit(binary.rhs());
    } else if (expr instanceof UnaryExpr unary) {
      visit(unary.expr());
    } else if (expr instanceof ParenExpr paren) {
      visit(paren.expr());
    }
  }

  private void use(VectorSelector selector, LongPredicate allows) {
    List<TierReader.Tier> usable = allowed.computeIfAbsent(QueryContext.key(selector.matchers()),
        k -> new ArrayList<>(candidates));
    usable.removeIf(tier -> inSubquery || !allows.test(tier.millis()));
  }
}
