package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.StringLiteral;
import io.chronix.analysis.promql.ast.ValueType;
import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/** Evaluates function calls: dispatches by name to the function families. */
final class FunctionCalls {

  private final Evaluator evaluator;
  private final int steps;

  FunctionCalls(Evaluator evaluator) {
    this.evaluator = evaluator;
    this.steps = evaluator.grid.steps();
  }

  Value eval(Call call) {
    String name = call.function().name();
    if (name.startsWith("chronix_")) {
      return new ChronixCalls(evaluator).eval(call);
    }
    QueryContext ctx = evaluator.ctx;
    switch (name) {
      case "time": {
        double[] values = new double[steps];
        for (int i = 0; i < steps; i++) {
          values[i] = evaluator.grid.time(i) / 1000.0;
        }
        return new Value.Scalar(values);
      }
      case "pi":
        return evaluator.scalar(Math.PI);
      case "step":
        return evaluator.scalar(ctx.queryStep / 1000.0);
      case "range":
        return evaluator.scalar((ctx.queryEnd - ctx.queryStart) / 1000.0);
      case "start":
        return evaluator.scalar(ctx.queryStart / 1000.0);
      case "end":
        return evaluator.scalar(ctx.queryEnd / 1000.0);
      case "min_of":
      case "max_of": {
        double[] a = scalarArg(call, 0);
        double[] b = scalarArg(call, 1);
        double[] values = new double[steps];
        for (int i = 0; i < steps; i++) {
          values[i] = name.equals("min_of") ? Math.min(a[i], b[i]) : Math.max(a[i], b[i]);
        }
        return new Value.Scalar(values);
      }
      case "vector": {
        double[] values = scalarArg(call, 0);
        StepSeries s = new StepSeries(Labels.EMPTY, steps);
        for (int i = 0; i < steps; i++) {
          s.set(i, values[i]);
        }
        return new Value.Vector(List.of(s));
      }
      case "scalar":
        return scalar(vectorArg(call, 0));
      case "absent":
        return absent(call);
      case "absent_over_time":
        return absentOverTime(call);
      case "timestamp":
        return timestamp(call);
      case "label_replace":
        return labelReplace(call);
      case "label_join":
        return labelJoin(call);
      case "sort":
      case "sort_desc":
      case "sort_by_label":
      case "sort_by_label_desc":
        return sort(call);
      case "clamp":
      case "clamp_min":
      case "clamp_max":
        return clamp(call);
      case "round":
        return round(call);
      case "histogram_quantile":
      case "histogram_quantiles":
      case "histogram_fraction":
        return new HistogramCalls(evaluator).eval(call);
      case "histogram_count":
      case "histogram_sum":
      case "histogram_avg":
      case "histogram_stddev":
      case "histogram_stdvar":
        // these read native histograms only; float samples give nothing
        vectorArg(call, 0);
        return new Value.Vector(List.of());
      default:
    }
    if (DateFunctions.has(name)) {
      return date(call);
    }
    DoubleUnaryOperator math = MathFunctions.named(name);
    if (math != null) {
      return map(vectorArg(call, 0), (v, step) -> math.applyAsDouble(v));
    }
    if (RangeFunctions.has(name)) {
      return rangeCall(call, RangeFunctions.named(name), RangeFunctions.keepsName(name));
    }
    throw new IllegalStateException("function " + name + " has no implementation");
  }

  Value.Vector vectorArg(Call call, int index) {
    return (Value.Vector) evaluator.eval(call.args().get(index));
  }

  double[] scalarArg(Call call, int index) {
    return ((Value.Scalar) evaluator.eval(call.args().get(index))).values();
  }

  static String stringArg(Call call, int index) {
    return ((StringLiteral) ParenExpr.unwrap(call.args().get(index))).value();
  }

  /** A value per present sample and step, the metric name dropped. */
  interface StepOperator {
    double apply(double value, int step);
  }

  Value.Vector map(Value.Vector input, StepOperator operator) {
    VectorBuilder out = new VectorBuilder(steps);
    for (StepSeries s : input.series()) {
      StepSeries result = new StepSeries(s.labels.withoutMetricName(), steps);
      for (int i = 0; i < steps; i++) {
        if (s.has(i)) {
          result.set(i, operator.apply(s.get(i), i));
        }
      }
      if (!result.isEmpty()) {
        out.addAll(result);
      }
    }
    return out.build();
  }

  /**
   * A function over a range vector: for each series and step, the function of the samples in the
   * step's window; series without a sample in a window have no value there.
   */
  Value.Vector rangeCall(Call call, RangeFunctions.RangeFunction function, boolean keepName) {
    int matrixIndex = matrixArgument(call);
    List<double[]> scalars = new ArrayList<>();
    for (int i = 0; i < call.args().size(); i++) {
      if (i != matrixIndex && call.function().argType(i) == ValueType.SCALAR) {
        scalars.add(scalarArg(call, i));
      }
    }
    String name = call.function().name();
    boolean counterFunction = name.equals("rate") || name.equals("increase");
    List<StepSeries> result = new ArrayList<>();
    Set<Labels> seen = new HashSet<>();
    boolean duplicate = false;
    Expr argumentExpr = call.args().get(matrixIndex);
    List<RawSeries> samples = new ArrayList<>();
    List<StepSeries> fromTier = new ArrayList<>();
    Evaluator.RangeArgument argument = tieredRange(call, argumentExpr, samples, fromTier, keepName);
    if (argument == null) {
      argument = evaluator.rangeArgument(argumentExpr);
      samples = argument.series();
    }
    for (StepSeries out : fromTier) {
      if (!out.isEmpty()) {
        evaluator.ctx.account(out.count());
        duplicate |= !seen.add(out.labels);
        result.add(out);
      }
    }
    // the windows of many series are computed on the cores; what follows keeps the series' order
    StepSeries[] outs = new StepSeries[samples.size()];
    IntStream indexes = IntStream.range(0, samples.size());
    if (samples.size() > 1 && (long) samples.size() * steps >= PARALLEL_WINDOWS) {
      indexes = indexes.parallel();
    }
    List<RawSeries> inputs = samples;
    long rangeMillis = argument.rangeMillis();
    long[] ends = argument.windowEnds(evaluator, steps);
    indexes.forEach(i -> outs[i] = windowsOf(inputs.get(i), rangeMillis, ends, function, scalars, keepName));
    for (int i = 0; i < outs.length; i++) {
      StepSeries out = outs[i];
      if (!out.isEmpty()) {
        evaluator.ctx.account(out.count());
        duplicate |= !seen.add(out.labels);
        result.add(out);
        String metric = samples.get(i).labels().metricName();
        if (counterFunction && !metric.isEmpty() && !metric.endsWith("_total") && !metric.endsWith("_sum")
            && !metric.endsWith("_count") && !metric.endsWith("_bucket")) {
          evaluator.annotations().info("metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "
              + quote(metric), call.args().get(matrixIndex).position());
        }
      }
    }
    if (name.equals("quantile_over_time")) {
      for (double q : scalars.get(0)) {
        if (Double.isNaN(q) || q < 0 || q > 1) {
          evaluator.annotations().warn("quantile value should be between 0 and 1, got " + Aggregations.goG(q),
              call.args().get(0).position());
        }
      }
    }
    if (duplicate) {
      throw PromQlException.execution(VectorBuilder.DUPLICATE);
    }
    return new Value.Vector(result);
  }

  /** Window evaluations of one call from which the series are spread over the cores (below, the hand-off costs more). */
  static final long PARALLEL_WINDOWS = 50_000;

  /** One series' value of the function at each step, from the samples in the step's window. */
  private StepSeries windowsOf(RawSeries s, long rangeMillis, long[] ends, RangeFunctions.RangeFunction function,
      List<double[]> scalars, boolean keepName) {
    evaluator.ctx.checkDeadline();
    Window w = new Window();
    w.rangeMillis = rangeMillis;
    w.scalars = new double[scalars.size()];
    StepSeries out = new StepSeries(keepName ? s.labels() : s.labels().withoutMetricName(), steps);
    w.over(s);
    if (function instanceof ExtrapolatedRate rate) {
      rate.windows(w, ends, out);
      return out;
    }
    for (int step = 0; step < steps; step++) {
      if (!w.place(ends[step])) {
        continue;
      }
      w.evalTime = evaluator.grid.time(step);
      for (int k = 0; k < scalars.size(); k++) {
        w.scalars[k] = scalars.get(k)[step];
      }
      double value = function.apply(w);
      if (!Window.isNoValue(value)) {
        out.set(step, value);
      }
    }
    return out;
  }

  /**
   * Where the plan reads the range's selector from a tier ({@link TierPlan}): the steps of the
   * series that have windows go to {@code fromTier}, the samples of those that do not to {@code
   * samples}, and the window placement is returned. Null where the samples answer.
   */
  private Evaluator.RangeArgument tieredRange(Call call, Expr argument, List<RawSeries> samples,
      List<StepSeries> fromTier, boolean keepName) {
    if (!TierPlan.FUNCTIONS.contains(call.function().name())
        || !(ParenExpr.unwrap(argument) instanceof MatrixSelector matrix)
        || evaluator.ctx.tierOf(matrix.selector().matchers()) == null) {
      return null;
    }
    VectorSelector selector = matrix.selector();
    for (TierReader.TieredSeries s : evaluator.ctx.windows(selector.matchers())) {
      if (s.windows() == null) {
        samples.add(s.samples().withoutStaleMarkers());
      } else {
        fromTier.add(TierSteps.range(keepName ? s.labels() : s.labels().withoutMetricName(), s.windows(),
            call.function().name(), evaluator.grid, selector.offsetMillis(), matrix.rangeMillis()));
      }
    }
    return new Evaluator.RangeArgument(samples, matrix.rangeMillis(), selector.offsetMillis(), selector.at(),
        matrix.position());
  }

  static int matrixArgument(Call call) {
    for (int i = 0; i < call.args().size(); i++) {
      if (call.args().get(i).type() == ValueType.MATRIX) {
        return i;
      }
    }
    throw new IllegalStateException(call.function().name() + " has no range vector argument");
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private Value scalar(Value.Vector input) {
    double[] values = new double[steps];
    for (int i = 0; i < steps; i++) {
      int present = 0;
      double value = Double.NaN;
      for (StepSeries s : input.series()) {
        if (s.has(i)) {
          present++;
          value = s.get(i);
        }
      }
      values[i] = present == 1 ? value : Double.NaN;
    }
    return new Value.Scalar(values);
  }

  /** The labels absent() reports: the selector's equality matchers, unless a name repeats. */
  static Labels absentLabels(Expr arg) {
    Expr expr = ParenExpr.unwrap(arg);
    List<LabelMatcher> matchers;
    if (expr instanceof VectorSelector selector) {
      matchers = selector.matchers();
    } else if (expr instanceof MatrixSelector matrix) {
      matchers = matrix.selector().matchers();
    } else {
      return Labels.EMPTY;
    }
    Labels.Builder builder = new Labels.Builder();
    Set<String> has = new HashSet<>();
    for (LabelMatcher matcher : matchers) {
      if (matcher.name().equals(Labels.METRIC_NAME)) {
        continue;
      }
      if (matcher.type() == LabelMatcher.Type.EQUAL && has.add(matcher.name())) {
        builder.set(matcher.name(), matcher.value());
      } else {
        builder.remove(matcher.name());
      }
    }
    return builder.build();
  }

  private Value absent(Call call) {
    return absentWhereNone(call, vectorArg(call, 0));
  }

  private Value absentOverTime(Call call) {
    return absentWhereNone(call, rangeCall(call, RangeFunctions.named("present_over_time"), false));
  }

  /** 1 at the steps where the input has no series, labelled from the argument's equality matchers. */
  private Value absentWhereNone(Call call, Value.Vector input) {
    StepSeries out = new StepSeries(absentLabels(call.args().get(0)), steps);
    for (int i = 0; i < steps; i++) {
      boolean any = false;
      for (StepSeries s : input.series()) {
        if (s.has(i)) {
          any = true;
          break;
        }
      }
      if (!any) {
        out.set(i, 1);
      }
    }
    return new Value.Vector(out.isEmpty() ? List.of() : List.of(out));
  }

  private Value timestamp(Call call) {
    Expr arg = ParenExpr.unwrap(call.args().get(0));
    Value.Vector input;
    if (arg instanceof VectorSelector selector) {
      input = evaluator.selectInstant(selector, true);
      return map(input, (v, step) -> v);
    }
    input = vectorArg(call, 0);
    return map(input, (v, step) -> evaluator.grid.time(step) / 1000.0);
  }

  private Value date(Call call) {
    String name = call.function().name();
    if (call.args().isEmpty()) {
      StepSeries s = new StepSeries(Labels.EMPTY, steps);
      for (int i = 0; i < steps; i++) {
        s.set(i, DateFunctions.apply(name, Math.floorDiv(evaluator.grid.time(i), 1000L)));
      }
      return new Value.Vector(List.of(s));
    }
    return map(vectorArg(call, 0), (v, step) -> DateFunctions.apply(name, v));
  }

  private Value clamp(Call call) {
    Value.Vector input = vectorArg(call, 0);
    String name = call.function().name();
    double[] low;
    double[] high;
    if (name.equals("clamp")) {
      low = scalarArg(call, 1);
      high = scalarArg(call, 2);
    } else if (name.equals("clamp_min")) {
      low = scalarArg(call, 1);
      high = filled(Double.POSITIVE_INFINITY);
    } else {
      low = filled(Double.NEGATIVE_INFINITY);
      high = scalarArg(call, 1);
    }
    VectorBuilder out = new VectorBuilder(steps);
    for (StepSeries s : input.series()) {
      StepSeries result = new StepSeries(s.labels.withoutMetricName(), steps);
      for (int i = 0; i < steps; i++) {
        if (s.has(i) && !(high[i] < low[i])) {
          result.set(i, Math.max(low[i], Math.min(high[i], s.get(i))));
        }
      }
      if (!result.isEmpty()) {
        out.addAll(result);
      }
    }
    return out.build();
  }

  private double[] filled(double value) {
    double[] values = new double[steps];
    java.util.Arrays.fill(values, value);
    return values;
  }

  private Value round(Call call) {
    Value.Vector input = vectorArg(call, 0);
    double[] nearest = call.args().size() > 1 ? scalarArg(call, 1) : filled(1);
    return map(input, (v, step) -> {
      double inverse = 1.0 / nearest[step];
      return Math.floor(v * inverse + 0.5) / inverse;
    });
  }

  private Value labelReplace(Call call) {
    String destination = stringArg(call, 1);
    String replacement = stringArg(call, 2);
    String source = stringArg(call, 3);
    String regex = stringArg(call, 4);
    Pattern pattern = LabelFunctions.replacePattern(regex);
    if (!Aggregations.validLabelName(destination)) {
      throw PromQlException.execution("invalid destination label name in label_replace(): " + destination);
    }
    Value.Vector input = vectorArg(call, 0);
    VectorBuilder out = new VectorBuilder(steps);
    for (StepSeries s : input.series()) {
      out.addAll(s.copyWithLabels(LabelFunctions.replace(s.labels, destination, replacement, source, pattern)));
    }
    return out.build();
  }

  private Value labelJoin(Call call) {
    String destination = stringArg(call, 1);
    String separator = stringArg(call, 2);
    List<String> sources = new ArrayList<>();
    for (int i = 3; i < call.args().size(); i++) {
      String source = stringArg(call, i);
      if (!Aggregations.validLabelName(source)) {
        throw PromQlException.execution("invalid source label name in label_join(): " + source);
      }
      sources.add(source);
    }
    if (!Aggregations.validLabelName(destination)) {
      throw PromQlException.execution("invalid destination label name in label_join(): " + destination);
    }
    Value.Vector input = vectorArg(call, 0);
    VectorBuilder out = new VectorBuilder(steps);
    for (StepSeries s : input.series()) {
      out.addAll(s.copyWithLabels(LabelFunctions.join(s.labels, destination, separator, sources)));
    }
    return out.build();
  }

  private Value sort(Call call) {
    Value.Vector input = vectorArg(call, 0);
    String name = call.function().name();
    if (!evaluator.grid.isInstant()) {
      evaluator.annotations().warn("sort is ineffective for range queries since results are always ordered by labels",
          call.position());
      return input;
    }
    List<StepSeries> sorted = new ArrayList<>(input.series());
    Comparator<StepSeries> order;
    switch (name) {
      case "sort":
        order = Comparator.comparingDouble(s -> Double.isNaN(s.get(0)) ? Double.POSITIVE_INFINITY : s.get(0));
        break;
      case "sort_desc":
        order = Comparator.comparingDouble(s -> Double.isNaN(s.get(0)) ? Double.POSITIVE_INFINITY : -s.get(0));
        break;
      default: {
        List<String> labels = new ArrayList<>();
        for (int i = 1; i < call.args().size(); i++) {
          labels.add(stringArg(call, i));
        }
        Comparator<StepSeries> byLabels = (a, b) -> {
          for (String label : labels) {
            int c = LabelFunctions.NATURAL.compare(a.labels.get(label), b.labels.get(label));
            if (c != 0) {
              return c;
            }
          }
          return a.labels.compareTo(b.labels);
        };
        order = name.equals("sort_by_label") ? byLabels : byLabels.reversed();
      }
    }
    sorted.sort(order);
    return new Value.Vector(sorted);
  }

  /** Helper for tests and messages: a value as Prometheus prints it. */
  static String format(double value) {
    return GoFloats.format(value);
  }

  static Map<Labels, List<Integer>> groupBy(List<StepSeries> series, java.util.function.Function<Labels, Labels> key) {
    Map<Labels, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = 0; i < series.size(); i++) {
      groups.computeIfAbsent(key.apply(series.get(i).labels), k -> new ArrayList<>()).add(i);
    }
    return groups;
  }
}
