package io.chronix.ingest.rollup;

import io.chronix.analysis.promql.engine.TierReader;
import io.chronix.ingest.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rollup tiers (docs/lifecycle.md): intervals such as {@code 5m,1h}, each a divisor-free
 * multiple of the one before so that a coarser tier answers what a finer one answers. Empty: none.
 */
public record RollupTiers(List<Duration> intervals) {

  public RollupTiers {
    intervals = List.copyOf(intervals);
  }

  /** @param text {@code rollup.tiers}: intervals separated by commas, finest first */
  public static RollupTiers parse(String text) {
    List<Duration> intervals = new ArrayList<>();
    for (String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      Duration interval = Durations.parse("rollup.tiers", part);
      if (interval.toMillis() <= 0 || interval.toNanos() % 1_000_000 != 0) {
        throw new IllegalArgumentException("rollup.tiers: " + part.trim() + " is not a positive number of milliseconds");
      }
      if (!intervals.isEmpty()) {
        Duration finer = intervals.get(intervals.size() - 1);
        if (interval.compareTo(finer) <= 0 || interval.toNanos() % finer.toNanos() != 0) {
          throw new IllegalArgumentException("rollup.tiers: " + part.trim() + " must be a multiple of " + finer
              + ", the tier before it (finest first)");
        }
      }
      intervals.add(interval);
    }
    return new RollupTiers(intervals);
  }

  /** The tiers as the PromQL engine reads them (names and milliseconds), finest first. */
  public List<TierReader.Tier> forPromQl() {
    List<TierReader.Tier> tiers = new ArrayList<>();
    for (Duration interval : intervals) {
      tiers.add(new TierReader.Tier(label(interval), interval.toMillis()));
    }
    return tiers;
  }

  public boolean isEmpty() {
    return intervals.isEmpty();
  }

  /** The name of a tier in record ids and the {@code _tier} field: its interval as Durations writes it (5m, 1h). */
  public static String label(Duration interval) {
    long seconds = interval.toSeconds();
    if (interval.toMillis() % 1000 != 0) {
      return interval.toMillis() + "ms";
    }
    if (seconds % 86_400 == 0) {
      return seconds / 86_400 + "d";
    }
    if (seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
  }
}
