package io.chronix.analysis.aggregation;

import io.chronix.core.series.Points;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;

/**
 * The aggregations without arguments. They ignore NaN values where a gap should not hide the
 * statistic (min, max, avg, sum, dev, range); the positional ones (first, last, diff, sdiff,
 * integral) take the points as they are, since skipping a point would change what they describe.
 */
public final class Aggregations {

  private static final Map<String, SimpleAggregation> BY_NAME = new LinkedHashMap<>();

  static {
    register("min", series -> statistic(series, StatUtils::min));
    register("max", series -> statistic(series, StatUtils::max));
    register("avg", series -> statistic(series, StatUtils::mean));
    register("sum", series -> statistic(series, StatUtils::sum));
    register("count", Points::size);
    register("first", series -> series.isEmpty() ? Double.NaN : series.value(0));
    register("last", series -> series.isEmpty() ? Double.NaN : series.value(series.size() - 1));
    register("dev", series -> statistic(series, new StandardDeviation()::evaluate));
    register("range", series -> statistic(series, Aggregations::range));
    register("diff", series -> Math.abs(signedDifference(series)));
    register("sdiff", Aggregations::signedDifference);
    register("integral", Aggregations::integral);
  }

  private Aggregations() {}

  private static void register(String name, ToDoubleFunction<Points> function) {
    BY_NAME.put(name, new SimpleAggregation(name, function));
  }

  /** The aggregation of a lower-case name, or null if there is none without arguments. */
  public static SimpleAggregation named(String name) {
    return BY_NAME.get(name);
  }

  public static Set<String> names() {
    return Collections.unmodifiableSet(BY_NAME.keySet());
  }

  private static double statistic(Points series, ToDoubleFunction<double[]> statistic) {
    double[] values = Samples.withoutNaN(series);
    return values.length == 0 ? Double.NaN : statistic.applyAsDouble(values);
  }

  private static double range(double[] values) {
    return StatUtils.max(values) - StatUtils.min(values);
  }

  private static double signedDifference(Points series) {
    return series.isEmpty() ? Double.NaN : series.value(series.size() - 1) - series.value(0);
  }

  /** Trapezoidal area under the series with time in seconds, so that rates integrate to totals. */
  private static double integral(Points series) {
    if (series.isEmpty()) {
      return Double.NaN;
    }
    double area = 0;
    for (int i = 1; i < series.size(); i++) {
      double seconds = (series.timestamp(i) - series.timestamp(i - 1)) / 1e9;
      area += (series.value(i) + series.value(i - 1)) / 2 * seconds;
    }
    return area;
  }
}
