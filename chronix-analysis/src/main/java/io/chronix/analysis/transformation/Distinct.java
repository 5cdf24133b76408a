package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * distinct: the first occurrence of each value, in time order. Values are compared by their bits
 * ({@link Double#doubleToLongBits}), so all NaNs are one value while 0.0 and -0.0 are two.
 */
public record Distinct() implements Transformation {

  @Override
  public String name() {
    return "distinct";
  }

  @Override
  public List<String> arguments() {
    return List.of();
  }

  @Override
  public Points apply(Points series) {
    Set<Long> seen = new HashSet<>();
    Points distinct = new Points();
    for (int i = 0; i < series.size(); i++) {
      if (seen.add(Double.doubleToLongBits(series.value(i)))) {
        distinct.add(series.timestamp(i), series.value(i));
      }
    }
    return distinct;
  }
}
