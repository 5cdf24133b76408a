package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.AggregateOp;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.StringLiteral;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.Labels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Aggregation operators. Each input series is assigned to its group once (the grouping labels do
 * not change over time); values are then combined per group and step, with Prometheus'
 * numerics: Kahan sums, an incremental mean where a sum would overflow, Welford's variance.
 */
final class Aggregations {

  private final Evaluator evaluator;
  private final int steps;

  Aggregations(Evaluator evaluator) {
    this.evaluator = evaluator;
    this.steps = evaluator.grid.steps();
  }

  Value eval(AggregateExpr expr) {
    if (expr.op() == AggregateOp.COUNT_VALUES) {
      return countValues(expr);
    }
    double[] params = null;
    if (expr.param() != null) {
      params = ((Value.Scalar) evaluator.eval(expr.param())).values();
    }
    Value.Vector input = (Value.Vector) evaluator.eval(expr.expr());
    List<StepSeries> series = input.series();
    switch (expr.op()) {
      case TOPK:
      case BOTTOMK:
      case LIMITK:
        checkK(params);
        return selectK(expr, series, params);
      case LIMIT_RATIO:
        checkRatio(expr, params);
        return selectK(expr, series, params);
      case QUANTILE:
        checkQuantiles(expr, params);
        return combine(expr, series, params);
      default:
        return combine(expr, series, params);
    }
  }

  private void checkK(double[] params) {
    for (double p : params) {
      if (Double.isNaN(p)) {
        throw PromQlException.execution("Parameter value is NaN");
      }
      if (p <= -9.223372036854775808e18) {
        throw PromQlException.execution("Scalar value " + GoFloats.format(p) + " underflows int64");
      }
      if (p >= 9.223372036854774784e18) {
        throw PromQlException.execution("Scalar value " + GoFloats.format(p) + " overflows int64");
      }
    }
  }

  private void checkRatio(AggregateExpr expr, double[] params) {
    for (double p : params) {
      if (Double.isNaN(p)) {
        throw PromQlException.execution("Ratio value is NaN");
      }
    }
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    for (double p : params) {
      max = Math.max(max, p);
      min = Math.min(min, p);
    }
    if (max > 1) {
      evaluator.annotations().warn("ratio value should be between -1 and 1, got " + goG(max) + ", capping to 1",
          expr.param().position());
    }
    if (min < -1) {
      evaluator.annotations().warn("ratio value should be between -1 and 1, got " + goG(min) + ", capping to -1",
          expr.param().position());
    }
  }

  private void checkQuantiles(AggregateExpr expr, double[] params) {
    for (double q : params) {
      if (Double.isNaN(q) || q < 0 || q > 1) {
        evaluator.annotations().warn("quantile value should be between 0 and 1, got " + goG(q), expr.param().position());
      }
    }
  }

  /** Go's %g for the numbers in messages. */
  static String goG(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return GoFloats.format(value);
  }

  /** The output labels of a group: the by-labels, or all but the without-labels and the name. */
  static Labels groupLabels(Labels labels, AggregateExpr expr) {
    if (expr.without()) {
      Set<String> dropped = new HashSet<>(expr.grouping());
      dropped.add(Labels.METRIC_NAME);
      return labels.drop(dropped);
    }
    if (expr.grouping().isEmpty()) {
      return Labels.EMPTY;
    }
    return labels.keep(new HashSet<>(expr.grouping()));
  }

  private Value combine(AggregateExpr expr, List<StepSeries> series, double[] params) {
    Map<Labels, Integer> groupIndex = new LinkedHashMap<>();
    int[] groupOf = new int[series.size()];
    for (int i = 0; i < series.size(); i++) {
      groupOf[i] = groupIndex.computeIfAbsent(groupLabels(series.get(i).labels, expr), l -> groupIndex.size());
    }
    List<Labels> groupLabels = new ArrayList<>(groupIndex.keySet());
    int groups = groupLabels.size();
    StepSeries[] out = new StepSeries[groups];
    for (int g = 0; g < groups; g++) {
      out[g] = new StepSeries(groupLabels.get(g), steps);
    }
    if (SeriesMajorAggregation.handles(expr.op())) {
      SeriesMajorAggregation.combine(expr.op(), series, groupOf, out, steps, evaluator.ctx::checkDeadline);
      return vectorOf(out);
    }
    Group[] state = new Group[groups];
    for (int g = 0; g < groups; g++) {
      state[g] = new Group();
    }
    for (int step = 0; step < steps; step++) {
      for (Group group : state) {
        group.seen = false;
      }
      for (int i = 0; i < series.size(); i++) {
        StepSeries s = series.get(i);
        if (s.has(step)) {
          state[groupOf[i]].add(expr.op(), s.get(step));
        }
      }
      for (int g = 0; g < groups; g++) {
        if (state[g].seen) {
          out[g].set(step, state[g].result(expr.op(), params == null ? 0 : params[step]));
        }
      }
      evaluator.ctx.checkDeadline();
    }
    return vectorOf(out);
  }

  private Value vectorOf(StepSeries[] out) {
    List<StepSeries> result = new ArrayList<>(out.length);
    for (StepSeries s : out) {
      if (!s.isEmpty()) {
        evaluator.ctx.account(s.count());
        result.add(s);
      }
    }
    return new Value.Vector(result);
  }

  /**
   * One group's running aggregate at one step: avg, stddev, stdvar, quantile and group
   * ({@link SeriesMajorAggregation} combines sum, count, min and max).
   */
  private static final class Group {
    boolean seen;
    double value;
    double mean;
    double compensation;
    double count;
    boolean incremental;
    double[] values = new double[8];
    int n;

    void add(AggregateOp op, double f) {
      if (!seen) {
        seen = true;
        value = f;
        mean = f;
        compensation = 0;
        count = 1;
        incremental = false;
        n = 0;
        switch (op) {
          case STDDEV:
          case STDVAR:
            value = Double.isNaN(f) || Double.isInfinite(f) ? Double.NaN : 0;
            break;
          case QUANTILE:
            push(f);
            break;
          case GROUP:
            value = 1;
            break;
          default:
        }
        return;
      }
      switch (op) {
        case AVG: {
          count++;
          if (!incremental) {
            double next = value + f;
            if (!Double.isInfinite(next)) {
              compensation = KahanSum.compensation(f, value, compensation);
              value = next;
              break;
            }
            incremental = true;
            mean = value / (count - 1);
            compensation /= count - 1;
          }
          double q = (count - 1) / count;
          double addend = f / count;
          double scaled = q * mean;
          compensation = KahanSum.compensation(addend, scaled, q * compensation);
          mean = scaled + addend;
          break;
        }
        case STDDEV:
        case STDVAR: {
          count++;
          double delta = f - mean;
          mean += delta / count;
          value += delta * (f - mean);
          break;
        }
        case QUANTILE:
          push(f);
          break;
        default:
      }
    }

    private void push(double f) {
      if (n == values.length) {
        values = java.util.Arrays.copyOf(values, n * 2);
      }
      values[n++] = f;
    }

    double result(AggregateOp op, double param) {
      switch (op) {
        case AVG:
          if (incremental) {
            return mean + compensation;
          }
          return value / count + compensation / count;
        case STDVAR:
          return value / count;
        case STDDEV:
          return Math.sqrt(value / count);
        case QUANTILE:
          return Quantiles.of(param, values, n);
        default:
          return value;
      }
    }
  }

  /** topk, bottomk, limitk, limit_ratio: whole input series selected per group and step. */
  private Value selectK(AggregateExpr expr, List<StepSeries> series, double[] params) {
    AggregateOp op = expr.op();
    Map<Labels, Integer> groupIndex = new HashMap<>();
    int[] groupOf = new int[series.size()];
    for (int i = 0; i < series.size(); i++) {
      groupOf[i] = groupIndex.computeIfAbsent(groupLabels(series.get(i).labels, expr), l -> groupIndex.size());
    }
    int groups = groupIndex.size();
    double[] offsets = op == AggregateOp.LIMIT_RATIO ? ratioOffsets(series) : null;
    StepSeries[] out = new StepSeries[series.size()];
    List<Integer> order = new ArrayList<>();
    List<List<Integer>> chosen = new ArrayList<>(groups);
    for (int g = 0; g < groups; g++) {
      chosen.add(new ArrayList<>());
    }
    for (int step = 0; step < steps; step++) {
      double param = params[step];
      long k = 0;
      double ratio = 0;
      if (op == AggregateOp.LIMIT_RATIO) {
        ratio = Math.max(-1, Math.min(1, param));
        if (ratio == 0) {
          continue;
        }
      } else {
        k = Math.min((long) param, series.size());
        if (k < 1) {
          continue;
        }
      }
      for (List<Integer> c : chosen) {
        c.clear();
      }
      for (int i = 0; i < series.size(); i++) {
        StepSeries s = series.get(i);
        if (!s.has(step)) {
          continue;
        }
        List<Integer> group = chosen.get(groupOf[i]);
        switch (op) {
          case LIMITK:
            if (group.size() < k) {
              group.add(i);
            }
            break;
          case LIMIT_RATIO:
            if ((ratio >= 0 && offsets[i] < ratio) || (ratio < 0 && offsets[i] >= 1 + ratio)) {
              group.add(i);
            }
            break;
          default:
            offer(group, i, (int) k, s.get(step), series, step, op == AggregateOp.TOPK);
        }
      }
      for (List<Integer> group : chosen) {
        if (op == AggregateOp.TOPK || op == AggregateOp.BOTTOMK) {
          boolean top = op == AggregateOp.TOPK;
          final int at = step;
          group.sort(Comparator.comparingDouble((Integer i) -> sortKey(series.get(i).get(at), top)));
        }
        for (int i : group) {
          if (out[i] == null) {
            out[i] = new StepSeries(series.get(i).labels, steps);
            order.add(i);
          }
          out[i].set(step, series.get(i).get(step));
        }
      }
    }
    List<StepSeries> result = new ArrayList<>(order.size());
    for (int i : order) {
      result.add(out[i]);
    }
    return new Value.Vector(result);
  }

  /** Sorts topk descending and bottomk ascending, NaN last either way. */
  private static double sortKey(double value, boolean top) {
    if (Double.isNaN(value)) {
      return Double.POSITIVE_INFINITY;
    }
    return top ? -value : value;
  }

  /**
   * Keeps the k best of a group as Prometheus' heap does: the first k come in; later ones replace
   * the worst kept one only when strictly better; NaN is worse than any number.
   */
  private static void offer(List<Integer> group, int candidate, int k, double value, List<StepSeries> series, int step,
      boolean top) {
    if (group.size() < k) {
      group.add(candidate);
      return;
    }
    int worst = 0;
    for (int g = 1; g < group.size(); g++) {
      if (worse(series.get(group.get(g)).get(step), series.get(group.get(worst)).get(step), top)) {
        worst = g;
      }
    }
    double worstValue = series.get(group.get(worst)).get(step);
    boolean better = top ? (worstValue < value || (Double.isNaN(worstValue) && !Double.isNaN(value)))
        : (worstValue > value || (Double.isNaN(worstValue) && !Double.isNaN(value)));
    if (better) {
      group.set(worst, candidate);
    }
  }

  private static boolean worse(double a, double b, boolean top) {
    if (Double.isNaN(a)) {
      return !Double.isNaN(b);
    }
    if (Double.isNaN(b)) {
      return false;
    }
    return top ? a < b : a > b;
  }

  /** A stable position in [0, 1) per series from a hash of its labels, for limit_ratio. */
  private static double[] ratioOffsets(List<StepSeries> series) {
    double[] offsets = new double[series.size()];
    for (int i = 0; i < offsets.length; i++) {
      byte[] bytes = series.get(i).labels.toString().getBytes(StandardCharsets.UTF_8);
      long hash = 0xcbf29ce484222325L;
      for (byte b : bytes) {
        hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
      }
      offsets[i] = (hash >>> 11) * 0x1.0p-53;
    }
    return offsets;
  }

  private Value countValues(AggregateExpr expr) {
    String label = ((StringLiteral) ParenExpr.unwrap(expr.param())).value();
    if (!validLabelName(label)) {
      throw PromQlException.execution("invalid label name " + evaluator.ctx.query.substring(
          expr.param().position().start(), expr.param().position().end()));
    }
    Value.Vector input = (Value.Vector) evaluator.eval(expr.expr());
    List<String> grouping = new ArrayList<>(expr.grouping());
    if (!expr.without()) {
      grouping.add(label);
    }
    AggregateExpr withValueLabel = new AggregateExpr(expr.op(), expr.expr(), expr.param(), grouping, expr.without(),
        expr.position());
    Map<Labels, StepSeries> output = new LinkedHashMap<>();
    for (int step = 0; step < steps; step++) {
      Map<Labels, Integer> counts = new LinkedHashMap<>();
      for (StepSeries s : input.series()) {
        if (s.has(step)) {
          Labels withValue = s.labels.toBuilder().set(label, GoFloats.format(s.get(step))).build();
          counts.merge(groupLabels(withValue, withValueLabel), 1, Integer::sum);
        }
      }
      for (Map.Entry<Labels, Integer> entry : counts.entrySet()) {
        output.computeIfAbsent(entry.getKey(), l -> new StepSeries(l, steps)).set(step, entry.getValue());
      }
    }
    return new Value.Vector(new ArrayList<>(output.values()));
  }

  /** UTF-8 label names are valid in Prometheus 3 as long as they are valid UTF-8 and not empty. */
  static boolean validLabelName(String name) {
    return !name.isEmpty() && name.indexOf('\uFFFD') < 0;
  }
}
