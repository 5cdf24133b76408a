package io.chronix.analysis.promql.engine;

import java.time.Duration;

/**
 * Bounds of one query, so that no query exhausts the server: samples loaded and held
 * ({@code maxSamples}, as Prometheus' --query.max-samples), steps of a range query, time.
 * {@code lookback} is how far back an instant selector looks for a sample (5 minutes);
 * {@code subqueryStep} the step of a subquery that names none.
 */
public record QueryLimits(long maxSamples, int maxSteps, Duration timeout, Duration lookback, Duration subqueryStep) {

  public static final QueryLimits DEFAULT =
      new QueryLimits(50_000_000L, 11_000, Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(1));

  public QueryLimits withTimeout(Duration changed) {
    return new QueryLimits(maxSamples, maxSteps, changed, lookback, subqueryStep);
  }

  public QueryLimits withMaxSamples(long changed) {
    return new QueryLimits(changed, maxSteps, timeout, lookback, subqueryStep);
  }

  public QueryLimits withLookback(Duration changed) {
    return new QueryLimits(maxSamples, maxSteps, timeout, changed, subqueryStep);
  }
}
