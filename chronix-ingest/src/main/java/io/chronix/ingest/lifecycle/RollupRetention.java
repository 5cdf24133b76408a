package io.chronix.ingest.lifecycle;

import io.chronix.ingest.rollup.RollupTiers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long each rollup tier is kept (docs/lifecycle.md, {@code rollup.retention}): a tier with a
 * period of its own keeps its rollup records until their last point is older than that period,
 * whether their records are still there or not; a tier without one goes with its records.
 */
public final class RollupRetention {

  /** A tier's retention: its label, and a period (null: forever) unless it follows its records. */
  public record Tier(String label, Duration period, boolean followsRecords) {}

  private final List<Tier> tiers;

  private RollupRetention(List<Tier> tiers) {
    this.tiers = List.copyOf(tiers);
  }

  /**
   * @param text {@code rollup.retention}: {@code tier=period} pairs separated by commas, e.g.
   *     {@code 5m=90d,1h=2y}; periods as retention.default takes them ({@code forever} too)
   * @throws IllegalArgumentException naming the setting and the part that is wrong
   */
  public static RollupRetention parse(String text, RollupTiers tiers) {
    Map<String, Duration> periods = new LinkedHashMap<>();
    List<String> labels = new ArrayList<>();
    for (Duration interval : tiers.intervals()) {
      labels.add(RollupTiers.label(interval));
    }
    for (String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      int equals = part.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("rollup.retention: '" + part.trim() + "' is not tier=period (e.g. 1h=2y)");
      }
      String tier = part.substring(0, equals).trim();
      String label = labelOf(tier, labels);
      if (periods.containsKey(label)) {
        throw new IllegalArgumentException("rollup.retention: the tier " + tier + " is named twice");
      }
      periods.put(label, RetentionRules.period("rollup.retention (" + tier + ")", part.substring(equals + 1)));
    }
    List<Tier> all = new ArrayList<>();
    for (String label : labels) {
      all.add(new Tier(label, periods.get(label), !periods.containsKey(label)));
    }
    return new RollupRetention(all);
  }

  /** The label of a tier as written in the setting (1h, 60m and PT1H name the same tier). */
  private static String labelOf(String tier, List<String> labels) {
    String label;
    try {
      label = RollupTiers.label(io.chronix.ingest.config.Durations.parse("rollup.retention", tier));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("rollup.retention: '" + tier + "' is no tier (rollup.tiers is "
          + (labels.isEmpty() ? "empty" : String.join(",", labels)) + ")", e);
    }
    if (!labels.contains(label)) {
      throw new IllegalArgumentException("rollup.retention: " + tier + " is not one of rollup.tiers ("
          + (labels.isEmpty() ? "none set" : String.join(",", labels)) + ")");
    }
    return label;
  }

  /** Every tier, finest first. */
  public List<Tier> tiers() {
    return tiers;
  }

  /** The labels of the tiers that go with their records. */
  public List<String> followingRecords() {
    return tiers.stream().filter(Tier::followsRecords).map(Tier::label).toList();
  }

  /** Whether some tier has a period of its own after which its rollups are deleted. */
  public boolean deletesOnItsOwn() {
    return tiers.stream().anyMatch(tier -> !tier.followsRecords() && tier.period() != null);
  }
}
