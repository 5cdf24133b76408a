package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * histogram_quantile, histogram_quantiles and histogram_fraction over classic histograms: the
 * series of one histogram are those whose labels are equal but for {@code le}. Native histograms
 * are not stored, so only classic ones occur.
 */
final class HistogramCalls {

  private static final String BUCKET_LABEL = "le";

  private final Evaluator evaluator;
  private final int steps;

  HistogramCalls(Evaluator evaluator) {
    this.evaluator = evaluator;
    this.steps = evaluator.grid.steps();
  }

  Value eval(Call call) {
    FunctionCalls calls = new FunctionCalls(evaluator);
    switch (call.function().name()) {
      case "histogram_quantile": {
        double[] q = calls.scalarArg(call, 0);
        warnQuantiles(q, call, 0);
        return quantiles(call, calls.vectorArg(call, 1), List.of(q), null, 1);
      }
      case "histogram_quantiles": {
        Value.Vector input = calls.vectorArg(call, 0);
        String label = FunctionCalls.stringArg(call, 1);
        List<double[]> qs = new ArrayList<>();
        for (int i = 2; i < call.args().size(); i++) {
          double[] q = calls.scalarArg(call, i);
          warnQuantiles(q, call, i);
          qs.add(q);
        }
        return quantiles(call, input, qs, label, 0);
      }
      default: {
        double[] lower = calls.scalarArg(call, 0);
        double[] upper = calls.scalarArg(call, 1);
        return fractions(call, calls.vectorArg(call, 2), lower, upper);
      }
    }
  }

  private void warnQuantiles(double[] q, Call call, int arg) {
    for (double value : q) {
      if (Double.isNaN(value) || value < 0 || value > 1) {
        evaluator.annotations().warn("quantile value should be between 0 and 1, got " + Aggregations.goG(value),
            call.args().get(arg).position());
      }
    }
  }

  /** The histograms of a vector: series grouped by labels without le, with each bucket's bound. */
  private Map<Labels, List<Bucket>> histograms(Value.Vector input, Call call, int vectorArg) {
    Map<Labels, List<Bucket>> histograms = new LinkedHashMap<>();
    for (StepSeries s : input.series()) {
      String le = s.labels.get(BUCKET_LABEL);
      double bound;
      try {
        bound = GoFloats.parse(le);
      } catch (NumberFormatException e) {
        evaluator.annotations().warn("bucket label \"le\" is missing or has a malformed value of "
            + FunctionCalls.quote(le) + " for metric name " + FunctionCalls.quote(s.labels.metricName()),
            call.args().get(vectorArg).position());
        continue;
      }
      Labels key = s.labels.toBuilder().remove(BUCKET_LABEL).build();
      histograms.computeIfAbsent(key, k -> new ArrayList<>()).add(new Bucket(bound, s));
    }
    return histograms;
  }

  private Value quantiles(Call call, Value.Vector input, List<double[]> qs, String quantileLabel, int vectorArg) {
    Map<Labels, List<Bucket>> histograms = histograms(input, call, vectorArg);
    VectorBuilder out = new VectorBuilder(steps);
    double[] bounds = new double[16];
    double[] counts = new double[16];
    for (double[] q : qs) {
      for (Map.Entry<Labels, List<Bucket>> histogram : histograms.entrySet()) {
        Labels labels = histogram.getKey().withoutMetricName();
        for (int step = 0; step < steps; step++) {
          int n = 0;
          for (Bucket bucket : histogram.getValue()) {
            if (bucket.series.has(step)) {
              if (n == bounds.length) {
                bounds = java.util.Arrays.copyOf(bounds, n * 2);
                counts = java.util.Arrays.copyOf(counts, n * 2);
              }
              bounds[n] = bucket.bound;
              counts[n++] = bucket.series.get(step);
            }
          }
          if (n == 0) {
            continue;
          }
          ClassicHistograms.Quantile result = ClassicHistograms.quantile(q[step], bounds, counts, n);
          if (result.forcedMonotonic()) {
            evaluator.annotations().info("input to histogram_quantile needed to be fixed for monotonicity (see "
                + "https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile) for metric name "
                + FunctionCalls.quote(histogram.getKey().metricName()), call.args().get(vectorArg).position());
          }
          Labels outLabels = quantileLabel == null ? labels
              : labels.toBuilder().set(quantileLabel, openMetricsFloat(q[step])).build();
          out.add(outLabels, step, result.value());
        }
      }
    }
    return out.build();
  }

  private Value fractions(Call call, Value.Vector input, double[] lower, double[] upper) {
    Map<Labels, List<Bucket>> histograms = histograms(input, call, 2);
    VectorBuilder out = new VectorBuilder(steps);
    for (Map.Entry<Labels, List<Bucket>> histogram : histograms.entrySet()) {
      Labels labels = histogram.getKey().withoutMetricName();
      List<Bucket> buckets = histogram.getValue();
      double[] bounds = new double[buckets.size()];
      double[] counts = new double[buckets.size()];
      for (int step = 0; step < steps; step++) {
        int n = 0;
        for (Bucket bucket : buckets) {
          if (bucket.series.has(step)) {
            bounds[n] = bucket.bound;
            counts[n++] = bucket.series.get(step);
          }
        }
        if (n > 0) {
          out.add(labels, step, ClassicHistograms.fraction(lower[step], upper[step], bounds, counts, n));
        }
      }
    }
    return out.build();
  }

  /** OpenMetrics' float form: "0.5", "1.0", "+Inf". */
  static String openMetricsFloat(double value) {
    String text = GoFloats.format(value);
    if (!Double.isNaN(value) && !Double.isInfinite(value) && value == Math.rint(value) && !text.contains(".")
        && Math.abs(value) < 1e21) {
      text += ".0";
    }
    return text;
  }

  private record Bucket(double bound, StepSeries series) {}
}
