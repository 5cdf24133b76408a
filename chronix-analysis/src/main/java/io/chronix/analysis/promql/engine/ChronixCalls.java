package io.chronix.analysis.promql.engine;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.ChronixFunction;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import io.chronix.analysis.Transformation;
import io.chronix.analysis.analysis.Outlier;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.ValueType;
import io.chronix.core.series.Points;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Chronix analyses and transformations as PromQL functions (docs/promql.md). They run the
 * chronix-analysis implementations, the same code as the {@code cf=} parameter: the call is
 * turned into the matching cf function spec ({@code chronix_movavg(x[1h], 600)} into
 * {@code movavg:600,seconds}), so arguments are checked and named alike.
 *
 * <p>Analyses give one number per series and step from the step's window: 1/0 for verdicts
 * (outlier, frequency, sax), the slope for trend, the normalized distance for fastdtw, the
 * number of anomalies for seasonal. Transformations give a range vector of new samples, computed
 * once over all samples the query's windows span.
 */
final class ChronixCalls {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  private final Evaluator evaluator;
  private final int steps;

  ChronixCalls(Evaluator evaluator) {
    this.evaluator = evaluator;
    this.steps = evaluator.grid.steps();
  }

  static boolean isTransformation(Call call) {
    return call.function().name().startsWith("chronix_") && call.type() == ValueType.MATRIX;
  }

  Value eval(Call call) {
    if (isTransformation(call)) {
      // a range vector at the top of a query: the transformed samples of the window(s)
      Evaluator.RangeArgument argument = transformed(call);
      List<RawSeries> result = new ArrayList<>();
      for (RawSeries s : argument.series()) {
        if (s.size() > 0) {
          result.add(s);
        }
      }
      return new Value.Range(result);
    }
    String name = call.function().name();
    if (name.equals("chronix_fastdtw")) {
      return fastDtw(call);
    }
    Analysis analysis = (Analysis) function(call, analysisSpec(call));
    String detail = name.equals("chronix_trend") ? "slope" : name.equals("chronix_seasonal_anomalies") ? "anomalies" : null;
    return new FunctionCalls(evaluator).rangeCall(call, w -> {
      AnalysisResult result = analysis.apply(points(w), q -> {
        throw new FunctionQueryException("no reference series");
      });
      if (detail == null) {
        return result.matches() ? 1 : 0;
      }
      Object value = result.details().get(detail);
      return value instanceof Number number ? number.doubleValue() : Window.NO_VALUE;
    }, false);
  }

  private String analysisSpec(Call call) {
    switch (call.function().name()) {
      case "chronix_outlier":
        return "outlier";
      case "chronix_trend":
        return "trend";
      case "chronix_frequency":
        // seconds in PromQL (so that 5m reads as a duration), minutes in the cf spec
        return "frequency:" + new BigDecimal(number(call, 1)).divide(BigDecimal.valueOf(60), MathContext.DECIMAL64)
            .stripTrailingZeros().toPlainString() + "," + number(call, 2);
      case "chronix_sax_match":
        return "sax:" + FunctionCalls.stringArg(call, 1) + "," + number(call, 2) + "," + number(call, 3) + ","
            + number(call, 4);
      case "chronix_seasonal_anomalies": {
        StringBuilder spec = new StringBuilder("seasonal:").append(number(call, 1));
        for (int i = 2; i < call.args().size(); i++) {
          spec.append(',').append(number(call, i));
        }
        return spec.toString();
      }
      default:
        throw new IllegalStateException("no analysis " + call.function().name());
    }
  }

  /** fastdtw of every series of the first argument against the one series of the second, per step. */
  private Value fastDtw(Call call) {
    Analysis analysis = (Analysis) function(call, "fastdtw:reference," + number(call, 2) + ",1e300");
    Evaluator.RangeArgument reference = evaluator.rangeArgument(call.args().get(1));
    if (reference.series().size() > 1) {
      throw PromQlException.execution(where(call) + "chronix_fastdtw: the reference (second argument) matches "
          + reference.series().size() + " series; it must match one");
    }
    RawSeries ref = reference.series().isEmpty() ? null : reference.series().get(0);
    Window refWindow = new Window();
    return new FunctionCalls(evaluator).rangeCall(call, w -> {
      if (ref == null) {
        return Window.NO_VALUE;
      }
      int step = (int) ((w.evalTime - evaluator.grid.start()) / evaluator.grid.interval());
      long end = reference.windowEnd(evaluator, step);
      refWindow.over(ref);
      refWindow.from = ref.upperBound(end - reference.rangeMillis());
      refWindow.to = ref.upperBound(end);
      if (refWindow.to <= refWindow.from) {
        return Window.NO_VALUE;
      }
      Points refPoints = points(refWindow);
      AnalysisResult result = analysis.apply(points(w), q -> refPoints);
      Object distance = result.details().get("normalizedDistance");
      return distance instanceof Double d ? d : Window.NO_VALUE;
    }, false);
  }

  /**
   * The samples a transformation gives: its range argument's samples over the span of all windows
   * of the query, transformed once per series.
   */
  Evaluator.RangeArgument transformed(Call call) {
    Evaluator.RangeArgument input = evaluator.rangeArgument(call.args().get(0));
    String name = call.function().name();
    ChronixFunction function = name.equals("chronix_outliers") ? null : function(call, transformationSpec(call));
    boolean keepName = switch (name) {
      case "chronix_outliers", "chronix_top", "chronix_bottom", "chronix_distinct", "chronix_vector",
          "chronix_timeshift" -> true;
      default -> false;
    };
    long first = input.windowEnd(evaluator, 0) - input.rangeMillis();
    long last = input.windowEnd(evaluator, steps - 1);
    List<RawSeries> output = new ArrayList<>(input.series().size());
    Window span = new Window();
    for (RawSeries s : input.series()) {
      span.over(s);
      span.from = s.upperBound(Math.min(first, last - input.rangeMillis()));
      span.to = s.upperBound(Math.max(last, first + input.rangeMillis()));
      if (span.to <= span.from) {
        continue;
      }
      Points in = points(span);
      Points out = function == null ? outliers(in) : ((Transformation) function).apply(in);
      evaluator.ctx.account(out.size());
      output.add(RawSeries.fromNanos(keepName ? s.labels() : s.labels().withoutMetricName(), out));
    }
    return new Evaluator.RangeArgument(output, input.rangeMillis(), input.offsetMillis(), input.at(), call.position());
  }

  private String transformationSpec(Call call) {
    switch (call.function().name()) {
      case "chronix_movavg":
        return "movavg:" + number(call, 1) + ",seconds";
      case "chronix_smovavg":
        return "smovavg:" + number(call, 1);
      case "chronix_vector":
        return "vector:" + number(call, 1);
      case "chronix_downsample":
        return "downsample:" + number(call, 1) + ",seconds," + FunctionCalls.stringArg(call, 2);
      case "chronix_distinct":
        return "distinct";
      case "chronix_derivative":
        return "derivative";
      case "chronix_nnderivative":
        return "nnderivative";
      case "chronix_top":
        return "top:" + number(call, 1);
      case "chronix_bottom":
        return "bottom:" + number(call, 1);
      case "chronix_timeshift":
        return "timeshift:" + number(call, 1) + ",seconds";
      default:
        throw new IllegalStateException("no transformation " + call.function().name());
    }
  }

  /** The points of the series that lie outside Tukey's fences of the series itself. */
  private static Points outliers(Points in) {
    Map<String, Object> details = new Outlier().apply(in, null).details();
    Points out = new Points(16);
    if (!details.containsKey("upper")) {
      return out;
    }
    double upper = (Double) details.get("upper");
    double lower = (Double) details.get("lower");
    for (int i = 0; i < in.size(); i++) {
      double v = in.value(i);
      if (v > upper || v < lower) {
        out.add(in.timestamp(i), v);
      }
    }
    return out;
  }

  private ChronixFunction function(Call call, String spec) {
    try {
      return Functions.parse(spec);
    } catch (IllegalArgumentException e) {
      throw PromQlException.badData(where(call) + call.function().name() + ": " + e.getMessage());
    }
  }

  private String where(Call call) {
    return call.position().describe(evaluator.ctx.query) + ": ";
  }

  /** A scalar argument that must be the same at every step, written as a cf number. */
  private String number(Call call, int index) {
    Expr arg = call.args().get(index);
    double[] values = ((Value.Scalar) evaluator.eval(arg)).values();
    for (double v : values) {
      if (Double.compare(v, values[0]) != 0) {
        throw PromQlException.badData(where(call) + call.function().name() + ": argument " + (index + 1)
            + " must be the same at every step");
      }
    }
    double value = values.length == 0 ? Double.NaN : values[0];
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw PromQlException.badData(where(call) + call.function().name() + ": argument " + (index + 1)
          + " must be a finite number, got " + Aggregations.goG(value));
    }
    return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
  }

  private static Points points(Window w) {
    int n = w.size();
    long[] t = new long[n];
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = w.t(i) * NANOS_PER_MILLI;
      v[i] = w.v(i);
    }
    return Points.wrap(t, v, n);
  }

}
