package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.rollup.BucketStats;
import java.util.List;

/**
 * What a {@link SeriesSource} that keeps rollup tiers offers besides samples: a series' statistics
 * per window {@code (start, start + tier]} (count, min, max, sum, last and the last sample's
 * timestamp), from which range queries whose steps fall on multiples of a tier compute the answer
 * the samples would give ({@link TierPlan}).
 */
public interface TierReader {

  /** A tier: its name (as the store calls it) and its length in milliseconds. */
  record Tier(String name, long millis) {}

  /**
   * One series of a selection: its windows, or its samples where the source cannot give windows
   * that answer exactly (then as {@link SeriesSource#select} gives them).
   */
  record TieredSeries(Labels labels, BucketStats windows, RawSeries samples) {
    public TieredSeries {
      if ((windows == null) == (samples == null)) {
        throw new IllegalArgumentException("a series has windows or samples, one of the two");
      }
    }
  }

  /** The tiers, finest first. */
  List<Tier> tiers();

  /**
   * Every series that matches all matchers and has samples in [minTime, maxTime] (epoch
   * milliseconds, both inclusive, minTime - 1 and maxTime multiples of the tier): its windows in
   * that span, each holding samples and none of them NaN, or its samples (a series with NaN values in
   * the span among them: stale markers are NaN, and windows cannot tell which ones they were). The
   * same promises as {@link SeriesSource#select}.
   */
  List<TieredSeries> selectWindows(List<LabelMatcher> matchers, Tier tier, long minTime, long maxTime);
}
