package io.chronix.analysis.promql.conformance;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.engine.StaleMarker;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.analysis.promql.parser.PromQlParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs Prometheus' PromQL test scripts against a backend (an engine over memory, or the store
 * behind its HTTP API) and reports each eval as passed, failed (with the reason) or skipped (with
 * the reason: native histograms, which the store does not hold).
 */
public final class ConformanceRunner {

  /** Relative tolerance of float comparisons, as Prometheus' promqltest uses. */
  private static final double EPSILON = 0.000001;

  /** Where the script's data goes and its queries run. */
  public interface Backend {
    /** Stores the samples (stale markers as {@link StaleMarker#VALUE}). */
    void load(List<LoadedSeries> series);

    /** Removes everything loaded so far. */
    void clear();

    QueryResult instant(String query, long time);

    QueryResult range(String query, long start, long end, long step);
  }

  public record LoadedSeries(Labels labels, long[] timestamps, double[] values) {}

  public enum Status { PASSED, FAILED, SKIPPED }

  public record Outcome(String file, int line, String query, Status status, String reason) {}

  private final Backend backend;

  public ConformanceRunner(Backend backend) {
    this.backend = backend;
  }

  public List<Outcome> run(Path file) throws java.io.IOException {
    TestScript script = TestScript.parse(file);
    String name = file.getFileName().toString();
    List<Outcome> outcomes = new ArrayList<>();
    List<Labels> histogramSeries = new ArrayList<>();
    backend.clear();
    for (TestScript.Command command : script.commands()) {
      if (command instanceof TestScript.Clear) {
        backend.clear();
        histogramSeries.clear();
      } else if (command instanceof TestScript.Load load) {
        backend.load(samples(load, histogramSeries));
      } else {
        TestScript.Eval eval = (TestScript.Eval) command;
        outcomes.add(evaluate(name, eval, histogramSeries));
      }
    }
    return outcomes;
  }

  private static List<LoadedSeries> samples(TestScript.Load load, List<Labels> histogramSeries) {
    List<LoadedSeries> loaded = new ArrayList<>();
    for (TestScript.SeriesData series : load.series()) {
      if (series.hasHistogram()) {
        histogramSeries.add(series.labels());
      }
      if (load.nhcb() && series.labels().metricName().endsWith("_bucket")) {
        String base = series.labels().metricName().replaceAll("_bucket$", "");
        histogramSeries.add(series.labels().toBuilder().set(Labels.METRIC_NAME, base).remove("le").build());
      }
      List<Long> times = new ArrayList<>();
      List<Double> values = new ArrayList<>();
      for (int i = 0; i < series.values().size(); i++) {
        TestScript.SampleValue value = series.values().get(i);
        if (value == null || value.histogram()) {
          continue;
        }
        times.add(i * load.intervalMillis());
        values.add(value.stale() ? StaleMarker.VALUE : value.value());
      }
      if (!times.isEmpty()) {
        long[] t = new long[times.size()];
        double[] v = new double[values.size()];
        for (int i = 0; i < t.length; i++) {
          t[i] = times.get(i);
          v[i] = values.get(i);
        }
        loaded.add(new LoadedSeries(series.labels(), t, v));
      }
    }
    return loaded;
  }

  private Outcome evaluate(String file, TestScript.Eval eval, List<Labels> histogramSeries) {
    String skip = skipReason(eval, histogramSeries);
    if (skip != null) {
      return new Outcome(file, eval.line(), eval.query(), Status.SKIPPED, skip);
    }
    QueryResult result;
    try {
      result = eval.range()
          ? backend.range(eval.query(), eval.start(), eval.end(), eval.step())
          : backend.instant(eval.query(), eval.start());
    } catch (PromQlException e) {
      if (!eval.expectFail()) {
        return failed(file, eval, "unexpected error: " + e.getMessage());
      }
      if (eval.failMessage() != null && !eval.failMessage().equals(e.getMessage())) {
        return failed(file, eval, "error '" + e.getMessage() + "' instead of '" + eval.failMessage() + "'");
      }
      if (eval.failRegex() != null && !Pattern.compile(eval.failRegex()).matcher(e.getMessage()).find()) {
        return failed(file, eval, "error '" + e.getMessage() + "' does not match /" + eval.failRegex() + "/");
      }
      return new Outcome(file, eval.line(), eval.query(), Status.PASSED, null);
    } catch (RuntimeException e) {
      return failed(file, eval, "crash: " + e);
    }
    if (eval.expectFail()) {
      return failed(file, eval, "expected an error, got a result");
    }
    String problem = annotationProblem(eval, result);
    if (problem == null) {
      problem = resultProblem(eval, result);
    }
    return problem == null ? new Outcome(file, eval.line(), eval.query(), Status.PASSED, null) : failed(file, eval, problem);
  }

  private static Outcome failed(String file, TestScript.Eval eval, String reason) {
    return new Outcome(file, eval.line(), eval.query(), Status.FAILED, reason);
  }

  /** Native histograms are not stored: evals that read or expect them are skipped. */
  private static String skipReason(TestScript.Eval eval, List<Labels> histogramSeries) {
    if (eval.mentionsHistograms()) {
      return "expects native histogram results";
    }
    if (histogramSeries.isEmpty()) {
      return null;
    }
    Expr expr;
    try {
      expr = PromQlParser.parse(eval.query());
    } catch (RuntimeException e) {
      return null;
    }
    List<VectorSelector> selectors = new ArrayList<>();
    collect(expr, selectors);
    for (VectorSelector selector : selectors) {
      for (Labels series : histogramSeries) {
        boolean all = true;
        for (LabelMatcher matcher : selector.matchers()) {
          all &= matcher.matches(series);
        }
        if (all) {
          return "selects native histogram series " + series;
        }
      }
    }
    return null;
  }

  private static void collect(Expr expr, List<VectorSelector> selectors) {
    if (expr instanceof VectorSelector selector) {
      selectors.add(selector);
    } else if (expr instanceof MatrixSelector matrix) {
      selectors.add(matrix.selector());
    } else if (expr instanceof SubqueryExpr subquery) {
      collect(subquery.expr(), selectors);
    } else if (expr instanceof Call call) {
      call.args().forEach(arg -> collect(arg, selectors));
    } else if (expr instanceof AggregateExpr aggregate) {
      collect(aggregate.expr(), selectors);
      if (aggregate.param() != null) {
        collect(aggregate.param(), selectors);
      }
    } else if (expr instanceof BinaryExpr binary) {
      collect(binary.lhs(), selectors);
      collect(binary.rhs(), selectors);
    } else if (expr instanceof UnaryExpr unary) {
      collect(unary.expr(), selectors);
    } else if (expr instanceof ParenExpr paren) {
      collect(paren.expr(), selectors);
    }
  }

  private static String annotationProblem(TestScript.Eval eval, QueryResult result) {
    String problem = annotationProblem("warn", eval.noWarn(), eval.anyWarn(), eval.warnExpectations(), result.warnings());
    return problem != null ? problem
        : annotationProblem("info", eval.noInfo(), eval.anyInfo(), eval.infoExpectations(), result.infos());
  }

  private static String annotationProblem(String kind, boolean none, boolean any, List<String> expectations,
      List<String> actual) {
    if (none && !actual.isEmpty()) {
      return "expected no " + kind + " annotation, got " + actual;
    }
    if (!any) {
      return null;
    }
    if (actual.isEmpty()) {
      return "expected a " + kind + " annotation, got none";
    }
    List<String> specific = new ArrayList<>();
    for (String expectation : expectations) {
      if (!expectation.isEmpty()) {
        specific.add(expectation);
      }
    }
    for (String expectation : specific) {
      boolean matched = false;
      for (String annotation : actual) {
        matched |= matches(expectation, annotation);
      }
      if (!matched) {
        return kind + " '" + expectation + "' not among " + actual;
      }
    }
    if (!specific.isEmpty()) {
      for (String annotation : actual) {
        boolean matched = false;
        for (String expectation : specific) {
          matched |= matches(expectation, annotation);
        }
        if (!matched) {
          return "unexpected " + kind + " annotation '" + annotation + "'";
        }
      }
    }
    return null;
  }

  private static boolean matches(String expectation, String annotation) {
    if (expectation.startsWith("msg:")) {
      return annotation.equals(expectation.substring(4).trim());
    }
    if (expectation.startsWith("regex:")) {
      return Pattern.compile(expectation.substring(6).trim()).matcher(annotation).find();
    }
    return true;
  }

  private static String resultProblem(TestScript.Eval eval, QueryResult result) {
    QueryResult.Data data = result.data();
    if (eval.expectedString() != null) {
      return data instanceof QueryResult.Text text && text.value().equals(eval.expectedString()) ? null
          : "expected string \"" + eval.expectedString() + "\", got " + describe(data);
    }
    if (eval.expectedScalar() != null) {
      if (!(data instanceof QueryResult.Scalar scalar)) {
        return "expected scalar " + eval.expectedScalar() + ", got " + describe(data);
      }
      return equal(eval.expectedScalar(), scalar.value()) ? null
          : "expected scalar " + GoFloats.format(eval.expectedScalar()) + ", got " + GoFloats.format(scalar.value());
    }
    if (eval.range() || eval.rangeVector() != null) {
      if (!(data instanceof QueryResult.Matrix matrix)) {
        return "expected a matrix, got " + describe(data);
      }
      long start = eval.range() ? eval.start() : eval.rangeVector().start();
      long step = eval.range() ? eval.step() : eval.rangeVector().step();
      return matrixProblem(eval.expected(), matrix, start, step);
    }
    if (!(data instanceof QueryResult.Vector vector)) {
      if (data instanceof QueryResult.Matrix && eval.expected().isEmpty()) {
        return ((QueryResult.Matrix) data).series().isEmpty() ? null : "expected nothing, got " + describe(data);
      }
      return "expected a vector, got " + describe(data);
    }
    return vectorProblem(eval.expected(), vector, eval.ordered());
  }

  private static String vectorProblem(List<TestScript.SeriesData> expected, QueryResult.Vector vector, boolean ordered) {
    if (expected.size() != vector.samples().size()) {
      return "expected " + expected.size() + " series, got " + vector.samples().size() + ": " + describe(vector);
    }
    Map<Labels, Double> actual = new HashMap<>();
    for (QueryResult.Sample sample : vector.samples()) {
      if (actual.put(sample.labels(), sample.value()) != null) {
        return "series " + sample.labels() + " twice in the result";
      }
    }
    for (int i = 0; i < expected.size(); i++) {
      TestScript.SeriesData want = expected.get(i);
      if (ordered && !vector.samples().get(i).labels().equals(want.labels())) {
        return "position " + i + ": expected " + want.labels() + ", got " + vector.samples().get(i).labels();
      }
      Double got = actual.get(want.labels());
      if (got == null) {
        return "missing series " + want.labels() + " in " + describe(vector);
      }
      TestScript.SampleValue value = want.values().isEmpty() ? null : want.values().get(0);
      if (value == null || !equal(value.value(), got)) {
        return "series " + want.labels() + ": expected " + (value == null ? "nothing" : GoFloats.format(value.value()))
            + ", got " + GoFloats.format(got);
      }
    }
    return null;
  }

  private static String matrixProblem(List<TestScript.SeriesData> expected, QueryResult.Matrix matrix, long start,
      long step) {
    Map<Labels, QueryResult.Series> actual = new HashMap<>();
    for (QueryResult.Series series : matrix.series()) {
      actual.put(series.labels(), series);
    }
    if (expected.size() != matrix.series().size()) {
      return "expected " + expected.size() + " series, got " + matrix.series().size() + ": " + describe(matrix);
    }
    for (TestScript.SeriesData want : expected) {
      QueryResult.Series got = actual.get(want.labels());
      if (got == null) {
        return "missing series " + want.labels() + " in " + describe(matrix);
      }
      int g = 0;
      for (int i = 0; i < want.values().size(); i++) {
        TestScript.SampleValue value = want.values().get(i);
        long t = start + i * step;
        boolean present = g < got.size() && got.timestamps()[g] == t;
        if (value == null) {
          if (present) {
            return "series " + want.labels() + " at " + t + "ms: expected no point, got " + GoFloats.format(got.values()[g]);
          }
          continue;
        }
        if (!present) {
          return "series " + want.labels() + ": no point at " + t + "ms (" + describe(got) + ")";
        }
        if (!equal(value.value(), got.values()[g])) {
          return "series " + want.labels() + " at " + t + "ms: expected " + GoFloats.format(value.value()) + ", got "
              + GoFloats.format(got.values()[g]);
        }
        g++;
      }
      if (g != got.size()) {
        return "series " + want.labels() + ": " + (got.size() - g) + " unexpected points (" + describe(got) + ")";
      }
    }
    return null;
  }

  /** Prometheus' almost.Equal with promqltest's epsilon; NaN equals NaN. */
  static boolean equal(double expected, double actual) {
    if (Double.isNaN(expected) && Double.isNaN(actual)) {
      return true;
    }
    if (expected == actual) {
      return true;
    }
    double absSum = Math.abs(expected) + Math.abs(actual);
    double diff = Math.abs(expected - actual);
    if (expected == 0 || actual == 0 || absSum < Double.MIN_NORMAL) {
      return diff < EPSILON * Double.MIN_NORMAL;
    }
    return diff / Math.min(absSum, Double.MAX_VALUE) < EPSILON;
  }

  private static String describe(QueryResult.Data data) {
    if (data instanceof QueryResult.Vector vector) {
      StringBuilder text = new StringBuilder("vector[");
      for (QueryResult.Sample s : vector.samples()) {
        text.append(s.labels()).append('=').append(GoFloats.format(s.value())).append(' ');
      }
      return text.append(']').toString();
    }
    if (data instanceof QueryResult.Matrix matrix) {
      StringBuilder text = new StringBuilder("matrix[");
      for (QueryResult.Series s : matrix.series()) {
        text.append(describe(s)).append(' ');
      }
      return text.append(']').toString();
    }
    if (data instanceof QueryResult.Scalar scalar) {
      return "scalar " + GoFloats.format(scalar.value());
    }
    return "string \"" + ((QueryResult.Text) data).value() + "\"";
  }

  private static String describe(QueryResult.Series s) {
    StringBuilder text = new StringBuilder().append(s.labels()).append('{');
    for (int i = 0; i < Math.min(s.size(), 12); i++) {
      text.append(s.timestamps()[i]).append(':').append(GoFloats.format(s.values()[i])).append(' ');
    }
    return text.append(s.size() > 12 ? "...}" : "}").toString();
  }
}
