package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.LabelMatcher;
import java.util.List;
import java.util.Optional;

/**
 * Where the engine gets series from: a store, or a list in memory for tests. The engine applies
 * the matchers again to what it gets, so a source may return more series than asked for (when it
 * cannot push a matcher down) but never fewer.
 */
public interface SeriesSource {

  /**
   * Every series that matches all matchers and has samples in [minTime, maxTime] (epoch
   * milliseconds, both inclusive), with those samples; samples outside may be included.
   *
   * @throws PromQlException for limits the source enforces (too many series or samples)
   */
  List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime);

  /**
   * As {@link #select}, for a selector evaluated at one time only (an instant selector): each
   * series needs no more than its latest sample in [minTime, maxTime], so a source may leave the
   * others out; it must not leave out a series or change a sample. Stale markers (NaN) as samples.
   */
  default List<RawSeries> selectLatest(List<LabelMatcher> matchers, long minTime, long maxTime) {
    return select(matchers, minTime, maxTime);
  }

  /**
   * As {@link #select}, for a selector evaluated as an instant selector at a range query's steps
   * only ({@code firstStep}, {@code firstStep + step}, ... up to maxTime): each series needs no
   * more than its latest sample at or before each step time, so a source may leave the others out;
   * it must not leave out a series or change a sample. Stale markers (NaN) as samples.
   */
  default List<RawSeries> selectSteps(List<LabelMatcher> matchers, long minTime, long maxTime, long firstStep,
      long step) {
    return select(matchers, minTime, maxTime);
  }

  /** The rollup tiers the source keeps, if it does: range queries read them where they answer exactly. */
  default Optional<TierReader> tierReader() {
    return Optional.empty();
  }
}
