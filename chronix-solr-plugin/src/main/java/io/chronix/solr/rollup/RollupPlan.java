package io.chronix.solr.rollup;

import io.chronix.analysis.ChronixFunction;
import io.chronix.analysis.FunctionQuery;
import io.chronix.analysis.transformation.Downsample;
import java.util.List;
import java.util.Set;

/**
 * Whether a series query can be answered from a rollup tier (docs/lifecycle.md): its functions
 * begin, in every type block, with the same {@code downsample} whose interval is a multiple of a
 * tier and whose aggregation the tier's statistics give; no ANALYZE filter (it judges the raw
 * series). The coarsest such tier is read.
 */
public record RollupPlan(String tier, long tierNanos, long intervalNanos, String aggregation) {

  static final Set<String> AGGREGATIONS = Set.of("min", "max", "sum", "count", "avg", "first", "last");

  /**
   * The downsample a tier could answer, or null: checked before the rollup core is opened, so
   * that queries no tier could answer (a raw fetch, an aggregation) never touch it.
   */
  public static Downsample wanted(FunctionQuery functions, boolean analyses) {
    if (analyses || functions.isEmpty()) {
      return null;
    }
    Downsample first = null;
    for (String type : functions.types()) {
      List<ChronixFunction> block = functions.functionsFor(type);
      if (block.isEmpty() || !(block.get(0) instanceof Downsample downsample)) {
        return null;
      }
      if (first != null && (first.intervalNanos() != downsample.intervalNanos()
          || !first.aggregation().name().equals(downsample.aggregation().name()))) {
        return null;
      }
      first = downsample;
    }
    return AGGREGATIONS.contains(first.aggregation().name()) ? first : null;
  }

  /** @param tiers the tiers present: label and interval in nanoseconds, finest first */
  public static RollupPlan of(Downsample first, List<Tier> tiers) {
    Tier chosen = null;
    for (Tier tier : tiers) {
      if (first.intervalNanos() % tier.nanos() == 0) {
        chosen = tier; // the coarsest that divides the interval wins: tiers come finest first
      }
    }
    return chosen == null ? null
        : new RollupPlan(chosen.label(), chosen.nanos(), first.intervalNanos(), first.aggregation().name());
  }

  /** A tier as the rollup core holds it. */
  public record Tier(String label, long nanos) {}
}
