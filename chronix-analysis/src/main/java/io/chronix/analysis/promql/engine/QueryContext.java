package io.chronix.analysis.promql.engine;

import io.chronix.core.budget.PointBudget;

import io.chronix.analysis.promql.model.LabelMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every part of one query's evaluation shares: the query text (for annotation positions),
 * the annotations, the series fetched for its selectors, its limits and deadline, and the
 * query-wide times that start(), end(), step() and range() report.
 */
final class QueryContext {

  private static final String TOO_MANY_SAMPLES =
      "query processing would load too many samples into memory in query execution";

  final String query;
  final Annotations annotations;
  final QueryLimits limits;
  final long queryStart;
  final long queryEnd;
  final long queryStep;
  private final SeriesSource source;
  private final long deadlineNanos;
  private final Map<String, Fetched> fetched = new ConcurrentHashMap<>();
  /** The selectors a rollup tier answers ({@link TierPlan}), and their windows once fetched. */
  private Map<String, TierReader.Tier> tiered = Map.of();
  private final Map<String, List<TierReader.TieredSeries>> windows = new ConcurrentHashMap<>();
  /** The names of the tiers whose windows answered some series, for the answer. */
  final java.util.Set<String> tiersRead = new java.util.concurrent.ConcurrentSkipListSet<>();
  private long samples;
  /** The query's share of the samples all queries in flight hold; null where the engine bounds none. */
  private final PointBudget.Lease share;

  /** @param inFlight the samples all queries in flight hold together, or null where none bounds them */
  QueryContext(String query, SeriesSource source, QueryLimits limits, long queryStart, long queryEnd, long queryStep,
      PointBudget inFlight) {
    this.share = inFlight == null ? null : inFlight.lease();
    this.query = query;
    this.source = source;
    this.limits = limits;
    this.queryStart = queryStart;
    this.queryEnd = queryEnd;
    this.queryStep = queryStep;
    this.annotations = new Annotations(query);
    this.deadlineNanos = System.nanoTime() + limits.timeout().toNanos();
  }

  long lookback() {
    return limits.lookback().toMillis();
  }

  void checkDeadline() {
    if (System.nanoTime() > deadlineNanos) {
      throw new PromQlException(PromQlException.Type.TIMEOUT, "query timed out in expression evaluation");
    }
  }

  /**
   * Counts points an operation holds; beyond the limit the query fails, and where the queries in
   * flight hold too many together ({@link PointBudget}) it is refused as unavailable, to retry.
   */
  synchronized void account(long points) {
    samples += points;
    if (samples > limits.maxSamples()) {
      throw PromQlException.execution(TOO_MANY_SAMPLES);
    }
    if (share != null && !share.take(points, SHARE_WAIT_MILLIS)) {
      throw new PromQlException(PromQlException.Type.UNAVAILABLE,
          share.refusal(points) + " (promql.maxSamples); retry when the queries in flight are done");
    }
  }

  /** How long a query that holds no samples yet waits for the others to give back enough. */
  static final long SHARE_WAIT_MILLIS = 5_000;

  /** Gives back what the query held against the queries in flight: when it is answered or fails. */
  void close() {
    if (share != null) {
      share.close();
    }
  }

  static String key(List<LabelMatcher> matchers) {
    List<String> parts = new ArrayList<>();
    for (LabelMatcher matcher : matchers) {
      parts.add(matcher.toString());
    }
    parts.sort(null);
    return String.join(",", parts);
  }

  /** Reads these selectors from these tiers ({@link TierPlan}); before anything is fetched. */
  void readTiers(Map<String, TierReader.Tier> plan) {
    this.tiered = Map.copyOf(plan);
  }

  /**
   * Fetches a selector's series for [minTime, maxTime], as windows of its tier where the plan
   * says so; called before evaluation, possibly in parallel.
   */
  void prefetch(FetchPlan.Fetch fetch) {
    List<LabelMatcher> matchers = fetch.matchers();
    long minTime = fetch.minTime();
    long maxTime = fetch.maxTime();
    TierReader.Tier tier = tiered.get(key(matchers));
    if (tier == null) {
      prefetchSamples(fetch);
      return;
    }
    // whole windows: an instant selector's lookback need not be a multiple of the tier, and a
    // query's end need not be on its grid (every step is, so no window past the last one is used)
    long from = Math.floorDiv(minTime - 1, tier.millis()) * tier.millis() + 1;
    long to = Math.floorDiv(maxTime, tier.millis()) * tier.millis();
    List<TierReader.TieredSeries> series = source.tierReader().orElseThrow()
        .selectWindows(matchers, tier, from, to);
    long count = 0;
    boolean read = false;
    List<TierReader.TieredSeries> matching = new ArrayList<>(series.size());
    for (TierReader.TieredSeries s : series) {
      if (matchesAll(matchers, s.labels())) {
        matching.add(s);
        count += s.windows() != null ? s.windows().size() : s.samples().size();
        read |= s.windows() != null;
      }
    }
    account(count);
    windows.put(key(matchers), matching);
    if (read) {
      tiersRead.add(tier.name());
    }
  }

  /** The tier a selector is read from, or null: its samples. */
  TierReader.Tier tierOf(List<LabelMatcher> matchers) {
    return tiered.get(key(matchers));
  }

  /** A tiered selector's series, fetched before evaluation ({@link #prefetch}). */
  List<TierReader.TieredSeries> windows(List<LabelMatcher> matchers) {
    List<TierReader.TieredSeries> series = windows.get(key(matchers));
    if (series == null) {
      throw new IllegalStateException("the windows of " + key(matchers) + " were not fetched");
    }
    return series;
  }

  private void prefetchSamples(FetchPlan.Fetch fetch) {
    List<LabelMatcher> matchers = fetch.matchers();
    long minTime = fetch.minTime();
    long maxTime = fetch.maxTime();
    List<RawSeries> series = fetch.latestOnly() ? source.selectLatest(matchers, minTime, maxTime)
        : fetch.steps() != null ? source.selectSteps(matchers, minTime, maxTime, fetch.steps().first(),
            fetch.steps().interval())
        : source.select(matchers, minTime, maxTime);
    long count = 0;
    List<RawSeries> matching = new ArrayList<>(series.size());
    for (RawSeries s : series) {
      if (matchesAll(matchers, s.labels())) {
        matching.add(s);
        count += s.size();
      }
    }
    account(count);
    fetched.put(key(matchers), new Fetched(minTime, maxTime, matching));
  }

  /** The series of a selector; fetched now if the plan did not cover this range. */
  List<RawSeries> series(List<LabelMatcher> matchers, long minTime, long maxTime) {
    Fetched present = fetched.get(key(matchers));
    if (present == null || present.minTime > minTime || present.maxTime < maxTime) {
      long from = present == null ? minTime : Math.min(minTime, present.minTime);
      long to = present == null ? maxTime : Math.max(maxTime, present.maxTime);
      prefetchSamples(new FetchPlan.Fetch(matchers, from, to, false, null));
      present = fetched.get(key(matchers));
    }
    return present.series;
  }

  private static boolean matchesAll(List<LabelMatcher> matchers, io.chronix.analysis.promql.model.Labels labels) {
    for (LabelMatcher matcher : matchers) {
      if (!matcher.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  private record Fetched(long minTime, long maxTime, List<RawSeries> series) {}
}
