package io.chronix.analysis;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the functions of one type to one series. Transformations run first, whatever their
 * position in the query, because Chronix defines aggregations and analyses on the transformed
 * series: "metric{max;scale:2}" yields twice the maximum. Array series are evaluated element by
 * element ({@link ElementWise}).
 */
public final class FunctionEvaluator {

  private FunctionEvaluator() {}

  /** @throws FunctionQueryException when an ANALYZE filter or analysis cannot judge a series of this type */
  public static void requireAnalysable(ValueType type, String analysis) {
    if (type == ValueType.ARRAY) {
      throw ElementWise.refused(analysis);
    }
  }

  public static EvaluatedSeries evaluate(
      Points series, List<ChronixFunction> functions, References references) {
    References lookup = references == null ? References.none() : references;
    if (series.type() == ValueType.ARRAY) {
      return ElementWise.evaluate(series, functions, lookup);
    }
    Points points = series;
    for (ChronixFunction function : functions) {
      if (function instanceof Transformation transformation) {
        points = transformation.apply(points);
      }
    }
    List<FunctionValue> values = new ArrayList<>();
    for (ChronixFunction function : functions) {
      if (function instanceof Aggregation aggregation) {
        values.add(FunctionValue.aggregated(aggregation, aggregation.apply(points)));
      } else if (function instanceof Analysis analysis) {
        values.add(FunctionValue.analysed(analysis, analysis.apply(points, lookup)));
      }
    }
    return new EvaluatedSeries(points, List.copyOf(values));
  }
}
