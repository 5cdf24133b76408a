package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.AtModifier;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.NumberLiteral;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.Position;
import io.chronix.analysis.promql.ast.StringLiteral;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates an expression at every step of a grid at once: selectors are read once per series for
 * all steps, operators and functions work on whole series. Binary operators, aggregations and
 * functions have classes of their own; this class holds the selectors, subqueries and dispatch.
 */
final class Evaluator {

  final QueryContext ctx;
  final Grid grid;

  Evaluator(QueryContext ctx, Grid grid) {
    this.ctx = ctx;
    this.grid = grid;
  }

  Value eval(Expr expr) {
    ctx.checkDeadline();
    if (expr instanceof NumberLiteral number) {
      return scalar(number.value());
    }
    if (expr instanceof StringLiteral string) {
      return new Value.Text(string.value());
    }
    if (expr instanceof ParenExpr paren) {
      return eval(paren.expr());
    }
    if (expr instanceof VectorSelector selector) {
      return selectInstant(selector, false);
    }
    if (expr instanceof MatrixSelector || expr instanceof SubqueryExpr) {
      return rangeAtInstant(expr);
    }
    if (expr instanceof UnaryExpr unary) {
      return negate(unary);
    }
    if (expr instanceof BinaryExpr binary) {
      return new BinaryOperations(this).eval(binary);
    }
    if (expr instanceof AggregateExpr aggregate) {
      return new Aggregations(this).eval(aggregate);
    }
    if (expr instanceof Call call) {
      return new FunctionCalls(this).eval(call);
    }
    throw new IllegalStateException("unknown expression " + expr);
  }

  Value.Scalar scalar(double value) {
    double[] values = new double[grid.steps()];
    Arrays.fill(values, value);
    return new Value.Scalar(values);
  }

  /** The evaluation time of a step for a selector with the given modifiers, before its offset. */
  long atTime(AtModifier at, int step) {
    return at == null ? grid.time(step) : at.resolve(ctx.queryStart, ctx.queryEnd);
  }

  /**
   * An instant selector: at each step the latest sample in (t - lookback, t] unless it is a
   * stale marker. With {@code timestamps}, the value is the sample's timestamp in seconds.
   */
  Value.Vector selectInstant(VectorSelector selector, boolean timestamps) {
    int steps = grid.steps();
    long offset = selector.offsetMillis();
    long lookback = ctx.lookback();
    List<StepSeries> result = new ArrayList<>();
    if (ctx.tierOf(selector.matchers()) != null) {
      for (TierReader.TieredSeries s : ctx.windows(selector.matchers())) {
        keep(s.windows() != null ? TierSteps.instant(s.labels(), s.windows(), grid, offset, lookback, timestamps)
            : instantSteps(s.samples(), selector, timestamps), result);
      }
      return new Value.Vector(result);
    }
    long from = atTime(selector.at(), 0) - offset - lookback + 1;
    long to = atTime(selector.at(), steps - 1) - offset;
    for (RawSeries s : ctx.series(selector.matchers(), Math.min(from, to - lookback + 1), to)) {
      keep(instantSteps(s, selector, timestamps), result);
    }
    return new Value.Vector(result);
  }

  private void keep(StepSeries out, List<StepSeries> result) {
    if (!out.isEmpty()) {
      ctx.account(out.count());
      result.add(out);
    }
  }

  private StepSeries instantSteps(RawSeries s, VectorSelector selector, boolean timestamps) {
    int steps = grid.steps();
    long offset = selector.offsetMillis();
    long lookback = ctx.lookback();
    StepSeries out = new StepSeries(s.labels(), steps);
    int after = 0; // the first sample after the last step's time: the step times do not decrease
    for (int i = 0; i < steps; i++) {
      long t = atTime(selector.at(), i) - offset;
      after = s.upperBoundOnwards(after, t);
      int index = after - 1;
      if (index >= 0 && s.timestamp(index) > t - lookback && !StaleMarker.is(s.value(index))) {
        out.set(i, timestamps ? s.timestamp(index) / 1000.0 : s.value(index));
      }
    }
    return out;
  }

  /**
   * The samples a range argument (matrix selector or subquery) provides, and how each step's
   * window is placed: (t - offset - range, t - offset], t fixed by @ if given.
   */
  RangeArgument rangeArgument(Expr expr) {
    if (expr instanceof ParenExpr paren) {
      return rangeArgument(paren.expr());
    }
    if (expr instanceof MatrixSelector matrix) {
      VectorSelector selector = matrix.selector();
      long offset = selector.offsetMillis();
      long from = atTime(selector.at(), 0) - offset - matrix.rangeMillis() + 1;
      long to = atTime(selector.at(), grid.steps() - 1) - offset;
      List<RawSeries> raw = ctx.series(selector.matchers(), Math.min(from, to - matrix.rangeMillis() + 1), to);
      List<RawSeries> series = new ArrayList<>(raw.size());
      for (RawSeries s : raw) {
        series.add(s.withoutStaleMarkers());
      }
      return new RangeArgument(series, matrix.rangeMillis(), offset, selector.at(), matrix.position());
    }
    if (expr instanceof Call call && ChronixCalls.isTransformation(call)) {
      return new ChronixCalls(this).transformed(call);
    }
    if (expr instanceof SubqueryExpr subquery) {
      return new RangeArgument(subquerySamples(subquery), subquery.rangeMillis(), subquery.offsetMillis(),
          subquery.at(), subquery.position());
    }
    throw new IllegalStateException("not a range argument: " + expr);
  }

  /** Evaluates a subquery's inner expression at its own step-aligned times. */
  private List<RawSeries> subquerySamples(SubqueryExpr subquery) {
    long step = subquery.stepMillis() > 0 ? subquery.stepMillis() : ctx.limits.subqueryStep().toMillis();
    long offset = subquery.offsetMillis();
    long first = atTime(subquery.at(), 0) - offset - subquery.rangeMillis();
    long last = atTime(subquery.at(), grid.steps() - 1) - offset;
    // the first step-aligned time after (start - offset - range): the window is open at its start
    long start = Math.floorDiv(first, step) * step;
    if (start <= first) {
      start += step;
    }
    Grid inner = new Grid(start, last, step);
    if (inner.steps() > ctx.limits.maxSteps() * 100L) {
      throw PromQlException.execution("subquery " + subquery.position().describe(ctx.query)
          + " would evaluate " + inner.steps() + " steps; use a larger step");
    }
    Value value = new Evaluator(ctx, inner).eval(subquery.expr());
    List<RawSeries> samples = new ArrayList<>();
    if (value instanceof Value.Vector vector) {
      for (StepSeries s : vector.series()) {
        samples.add(s.samples(inner));
      }
    } else if (value instanceof Value.Scalar scalar) {
      samples.add(StepSeries.ofScalar(scalar.values()).samples(inner));
    }
    return samples;
  }


  /** A range vector at the top of an instant query: the samples of each series' window. */
  private Value rangeAtInstant(Expr expr) {
    if (!grid.isInstant()) {
      throw PromQlException.execution("cannot do range evaluation of a range vector");
    }
    RangeArgument argument = rangeArgument(expr);
    List<RawSeries> result = new ArrayList<>();
    for (RawSeries s : argument.series()) {
      long end = argument.windowEnd(this, 0);
      int from = s.upperBound(end - argument.rangeMillis());
      int to = s.upperBound(end);
      if (to > from) {
        long[] t = new long[to - from];
        double[] v = new double[to - from];
        for (int i = from; i < to; i++) {
          t[i - from] = s.timestamp(i);
          v[i - from] = s.value(i);
        }
        result.add(new RawSeries(s.labels(), t, v, to - from));
      }
    }
    return new Value.Range(result);
  }

  private Value negate(UnaryExpr unary) {
    Value value = eval(unary.expr());
    if (!unary.negate()) {
      return value;
    }
    if (value instanceof Value.Scalar scalar) {
      double[] out = new double[scalar.values().length];
      for (int i = 0; i < out.length; i++) {
        out[i] = -scalar.values()[i];
      }
      return new Value.Scalar(out);
    }
    VectorBuilder out = new VectorBuilder(grid.steps());
    for (StepSeries s : ((Value.Vector) value).series()) {
      StepSeries negated = new StepSeries(s.labels.withoutMetricName(), grid.steps());
      for (int i = 0; i < grid.steps(); i++) {
        if (s.has(i)) {
          negated.set(i, -s.get(i));
        }
      }
      out.addAll(negated);
    }
    return out.build();
  }

  QueryLimits limits() {
    return ctx.limits;
  }

  Annotations annotations() {
    return ctx.annotations;
  }

  /** Labels with __name__ removed, remembered per input so that many steps do not rebuild them. */
  static final class NameDropper {
    private final Map<Labels, Labels> cache = new HashMap<>();

    Labels drop(Labels labels) {
      return cache.computeIfAbsent(labels, Labels::withoutMetricName);
    }
  }

  /**
   * A range vector argument: its series' samples (stale markers removed) and where each step's
   * window lies.
   */
  record RangeArgument(List<RawSeries> series, long rangeMillis, long offsetMillis, AtModifier at,
      Position position) {

    /** The inclusive end of the window of a step. */
    long windowEnd(Evaluator evaluator, int step) {
      return evaluator.atTime(at, step) - offsetMillis;
    }

    /** The inclusive ends of the windows of all steps, worked out once for all the series. */
    long[] windowEnds(Evaluator evaluator, int steps) {
      long[] ends = new long[steps];
      for (int step = 0; step < steps; step++) {
        ends[step] = windowEnd(evaluator, step);
      }
      return ends;
    }
  }
}
