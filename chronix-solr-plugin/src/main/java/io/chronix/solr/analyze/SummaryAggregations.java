package io.chronix.solr.analyze;

import io.chronix.analysis.Aggregation;
import io.chronix.analysis.ChronixFunction;
import io.chronix.analysis.FunctionQuery;
import io.chronix.analysis.FunctionValue;
import io.chronix.analysis.aggregation.SimpleAggregation;
import io.chronix.core.record.RecordStats;
import io.chronix.solr.query.RecordSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The aggregations that record statistics answer (docs/query.md): with the same meaning as on the
 * points (NaN ignored by min, max and sum, counted by count; first and last positional). A query
 * qualifies when these are all it asks for.
 */
public final class SummaryAggregations {

  private static final Set<String> ANSWERED = Set.of("min", "max", "count", "sum", "first", "last", "range");

  private SummaryAggregations() {}

  /** Whether every function of every type block is one of the answered aggregations. */
  public static boolean answers(FunctionQuery functions) {
    if (functions.isEmpty()) {
      return false;
    }
    for (String type : functions.types()) {
      for (ChronixFunction function : functions.functionsFor(type)) {
        if (!(function instanceof SimpleAggregation aggregation) || !ANSWERED.contains(aggregation.name())) {
          return false;
        }
      }
    }
    return true;
  }

  static List<FunctionValue> values(RecordSummary summary, List<ChronixFunction> functions) {
    RecordStats stats = summary.stats();
    List<FunctionValue> values = new ArrayList<>(functions.size());
    for (ChronixFunction function : functions) {
      SimpleAggregation aggregation = (SimpleAggregation) function;
      double value = switch (aggregation.name()) {
        case "min" -> stats.min();
        case "max" -> stats.max();
        case "count" -> stats.count();
        case "sum" -> stats.sum();
        case "first" -> stats.first();
        case "last" -> stats.last();
        case "range" -> stats.max() - stats.min();
        default -> throw new IllegalStateException(aggregation.name() + " is not answered from statistics");
      };
      values.add(FunctionValue.aggregated((Aggregation) aggregation, value));
    }
    return values;
  }
}
