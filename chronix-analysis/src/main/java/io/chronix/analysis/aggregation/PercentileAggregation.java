package io.chronix.analysis.aggregation;

import io.chronix.analysis.Aggregation;
import io.chronix.core.series.Points;
import java.util.List;

/**
 * The p:&lt;q&gt; aggregation. Commons Math's default estimation is used on purpose, so that the
 * numbers agree with what users get from Commons Math (and the original Chronix) on the same data.
 */
public record PercentileAggregation(double quantile, List<String> arguments)
    implements Aggregation {

  public PercentileAggregation {
    if (!(quantile > 0 && quantile <= 1)) {
      throw new IllegalArgumentException("quantile must be in (0,1], got " + quantile);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "p";
  }

  @Override
  public double apply(Points series) {
    double[] values = Samples.withoutNaN(series);
    return values.length == 0 ? Double.NaN : new Quantiles(values).percentile(quantile * 100);
  }
}
