package io.chronix.analysis.promql.engine;

import io.chronix.core.budget.PointBudget;

import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.ValueType;
import io.chronix.analysis.promql.parser.ParseException;
import io.chronix.analysis.promql.parser.PromQlParser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Runs PromQL queries against a {@link SeriesSource}: parses, fetches every selector's series (in
 * parallel on the given executor), evaluates over the query's steps and returns Prometheus'
 * result types. Thread-safe; one engine serves all queries.
 */
public final class Engine {

  private final SeriesSource source;
  private final Executor fetchers;
  /** The samples all queries in flight hold together, or null. */
  private final PointBudget inFlight;

  public Engine(SeriesSource source, Executor fetchers) {
    this(source, fetchers, null);
  }

  /**
   * @param inFlight bounds the samples that all queries in flight hold together (each query's own
   *     limit is {@link QueryLimits#maxSamples}); a query it cannot take fails as unavailable
   */
  public Engine(SeriesSource source, Executor fetchers, PointBudget inFlight) {
    this.source = source;
    this.fetchers = fetchers;
    this.inFlight = inFlight;
  }

  /** An instant query at {@code time} (epoch milliseconds). */
  public QueryResult instant(String query, long time, QueryLimits limits) {
    Expr expr = parse(query);
    QueryContext ctx = new QueryContext(query, source, limits, time, time, 0, inFlight);
    try {
      return instant(expr, ctx, time);
    } finally {
      ctx.close();
    }
  }

  private QueryResult instant(Expr expr, QueryContext ctx, long time) {
    Value value = evaluate(expr, ctx, Grid.instant(time));
    QueryResult.Data data;
    if (value instanceof Value.Scalar scalar) {
      data = new QueryResult.Scalar(time, scalar.values()[0]);
    } else if (value instanceof Value.Text text) {
      data = new QueryResult.Text(time, text.value());
    } else if (value instanceof Value.Range range) {
      data = matrixOf(range.series());
    } else {
      List<QueryResult.Sample> samples = new ArrayList<>();
      for (StepSeries s : ((Value.Vector) value).series()) {
        if (s.has(0)) {
          samples.add(new QueryResult.Sample(s.labels, s.get(0)));
        }
      }
      data = new QueryResult.Vector(time, samples);
    }
    return new QueryResult(data, ctx.annotations.warnings(), ctx.annotations.infos());
  }

  /** A range query from start to end (inclusive, epoch milliseconds) every {@code step} ms. */
  public QueryResult range(String query, long start, long end, long step, QueryLimits limits) {
    return range(rangeExpression(query, start, end, step, limits), query, start, end, step, limits);
  }

  /** A range query already parsed and checked ({@link #rangeExpression}). */
  QueryResult range(Expr expr, String query, long start, long end, long step, QueryLimits limits) {
    QueryContext ctx = new QueryContext(query, source, limits, start, end, step, inFlight);
    try {
      return range(expr, ctx, new Grid(start, end, step));
    } finally {
      ctx.close();
    }
  }

  private QueryResult range(Expr expr, QueryContext ctx, Grid grid) {
    Value value = evaluate(expr, ctx, grid);
    List<QueryResult.Series> series = new ArrayList<>();
    if (value instanceof Value.Range range) {
      return new QueryResult(matrixOf(range.series()), ctx.annotations.warnings(), ctx.annotations.infos(),
          List.copyOf(ctx.tiersRead));
    }
    if (value instanceof Value.Scalar scalar) {
      series.add(points(StepSeries.ofScalar(scalar.values()), grid));
    } else {
      for (StepSeries s : ((Value.Vector) value).series()) {
        if (!s.isEmpty()) {
          series.add(points(s, grid));
        }
      }
    }
    series.sort(Comparator.comparing(QueryResult.Series::labels));
    return new QueryResult(new QueryResult.Matrix(series), ctx.annotations.warnings(), ctx.annotations.infos(),
        List.copyOf(ctx.tiersRead));
  }

  /** The same engine reading samples only, never a rollup tier (to compare, or where tiers are not wanted). */
  public Engine withoutTiers() {
    return new Engine(source::select, fetchers, inFlight);
  }

  /** The parsed query, where it and the range are fit for a range query; else why not, as bad data. */
  static Expr rangeExpression(String query, long start, long end, long step, QueryLimits limits) {
    if (end < start) {
      throw PromQlException.badData("end timestamp must not be before start time");
    }
    if (step <= 0) {
      throw PromQlException.badData("zero or negative query resolution step widths are not accepted. Try a positive integer");
    }
    if ((end - start) / step + 1 > limits.maxSteps()) {
      throw PromQlException.badData("exceeded maximum resolution of " + String.format("%,d", limits.maxSteps())
          + " points per timeseries. Try decreasing the query resolution (?step=XX)");
    }
    Expr expr = parse(query);
    if (expr.type() != ValueType.VECTOR && expr.type() != ValueType.SCALAR && !isTransformation(expr)) {
      throw PromQlException.badData("invalid expression type \"" + expr.type().description()
          + "\" for range query, must be Scalar or instant Vector");
    }
    return expr;
  }

  private static boolean isTransformation(Expr expr) {
    return ParenExpr.unwrap(expr) instanceof Call call && ChronixCalls.isTransformation(call);
  }

  private static Expr parse(String query) {
    try {
      return PromQlParser.parse(query);
    } catch (ParseException e) {
      throw new PromQlException(PromQlException.Type.BAD_DATA, e.getMessage(), e);
    }
  }

  private Value evaluate(Expr expr, QueryContext ctx, Grid grid) {
    source.tierReader().ifPresent(reader -> ctx.readTiers(TierPlan.of(expr, grid, reader.tiers())));
    prefetch(FetchPlan.of(expr, grid.start(), grid.end(), grid.interval(), ctx.lookback()), ctx);
    try {
      return new Evaluator(ctx, grid).eval(expr);
    } catch (StackOverflowError e) {
      throw PromQlException.execution("query is nested too deeply to evaluate");
    }
  }

  private void prefetch(Collection<FetchPlan.Fetch> fetches, QueryContext ctx) {
    if (fetches.size() == 1) {
      FetchPlan.Fetch fetch = fetches.iterator().next();
      ctx.prefetch(fetch);
      return;
    }
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (FetchPlan.Fetch fetch : fetches) {
      futures.add(CompletableFuture.runAsync(() -> ctx.prefetch(fetch), fetchers));
    }
    try {
      CompletableFuture.allOf(futures.toArray(new CompletableFuture[0])).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw e;
    }
  }

  private static QueryResult.Series points(StepSeries s, Grid grid) {
    RawSeries samples = s.samples(grid);
    return new QueryResult.Series(samples.labels(), samples.timestampArray(), samples.valueArray(), samples.size());
  }

  private static QueryResult.Matrix matrixOf(List<RawSeries> raw) {
    List<QueryResult.Series> series = new ArrayList<>(raw.size());
    for (RawSeries s : raw) {
      series.add(new QueryResult.Series(s.labels(), s.timestampArray(), s.valueArray(), s.size()));
    }
    series.sort(Comparator.comparing(QueryResult.Series::labels));
    return new QueryResult.Matrix(series);
  }
}
