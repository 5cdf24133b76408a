package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.List;

/**
 * derivative and nnderivative: the rate per second between consecutive points, stamped at the
 * later point. nnderivative drops negative rates, which for counters are resets rather than
 * real decreases. Consecutive points with the same timestamp have no rate and yield no point.
 */
public record Derivative(boolean nonNegative) implements Transformation {

  @Override
  public String name() {
    return nonNegative ? "nnderivative" : "derivative";
  }

  @Override
  public List<String> arguments() {
    return List.of();
  }

  @Override
  public Points apply(Points series) {
    Points rates = new Points(Math.max(0, series.size() - 1));
    for (int i = 1; i < series.size(); i++) {
      long nanos = series.timestamp(i) - series.timestamp(i - 1);
      if (nanos == 0) {
        continue;
      }
      double rate = (series.value(i) - series.value(i - 1)) / (nanos / 1e9);
      if (!(nonNegative && rate < 0)) {
        rates.add(series.timestamp(i), rate);
      }
    }
    return rates;
  }
}
