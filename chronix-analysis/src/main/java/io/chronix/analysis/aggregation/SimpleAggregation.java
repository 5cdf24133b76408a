package io.chronix.analysis.aggregation;

import io.chronix.analysis.Aggregation;
import io.chronix.core.series.Points;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** An aggregation without arguments; see {@link Aggregations} for the catalogue. */
public record SimpleAggregation(String name, ToDoubleFunction<Points> function)
    implements Aggregation {

  @Override
  public List<String> arguments() {
    return List.of();
  }

  @Override
  public double apply(Points series) {
    return function.applyAsDouble(series);
  }

  @Override
  public String toString() {
    return name;
  }
}
