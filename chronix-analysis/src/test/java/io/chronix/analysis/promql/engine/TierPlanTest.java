package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.conformance.SameMatrix;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.rollup.BucketStats;
import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Range queries read a source's rollup windows where the plan allows and answer as the samples
 * do: every function the tiers answer, ranges and offsets on multiples of the tier, samples on
 * window boundaries, NaN and stale markers (those series come as samples), instant selectors
 * with a lookback that is no multiple of the tier; and they read samples where a tier cannot
 * answer (unaligned start or step, rate, subqueries, @).
 */
class TierPlanTest {

  private static final long MINUTE = 60_000;
  private static final long HOUR = 60 * MINUTE;
  private static final long T0 = 1_700_006_400_000L; // a multiple of a day
  private static final List<TierReader.Tier> TIERS = List.of(new TierReader.Tier("5m", 5 * MINUTE),
      new TierReader.Tier("1h", HOUR));

  private final InMemorySource samples = new InMemorySource();
  private final List<String> windowReads = new ArrayList<>();
  private final SeriesSource tiered = new SeriesSource() {
    @Override
    public List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
      return samples.select(matchers, minTime, maxTime);
    }

    @Override
    public Optional<TierReader> tierReader() {
      return Optional.of(new TierReader() {
        @Override
        public List<Tier> tiers() {
          return TIERS;
        }

        @Override
        public List<TieredSeries> selectWindows(List<LabelMatcher> matchers, Tier tier, long minTime, long maxTime) {
          assertEquals(1, Math.floorMod(minTime, tier.millis()), "whole windows are asked for");
          assertEquals(0, Math.floorMod(maxTime, tier.millis()), "whole windows are asked for");
          windowReads.add(tier.name());
          List<TieredSeries> series = new ArrayList<>();
          for (RawSeries s : samples.select(matchers, minTime, maxTime)) {
            Points points = new Points();
            boolean nan = false;
            for (int i = 0; i < s.size(); i++) {
              points.add(s.timestamp(i) * 1_000_000L, s.value(i));
              nan |= Double.isNaN(s.value(i));
            }
            series.add(nan ? new TieredSeries(s.labels(), null, s)
                : new TieredSeries(s.labels(), BucketStats.windows(points, tier.millis()), null));
          }
          return series;
        }
      });
    }
  };
  private final Engine engine = new Engine(tiered, Runnable::run);

  TierPlanTest() {
    Random random = new Random(41);
    for (String host : new String[] {"a", "b", "c"}) {
      List<Long> times = new ArrayList<>();
      List<Double> values = new ArrayList<>();
      long t = T0 - 6 * HOUR;
      while (t < T0 + 30 * HOUR) {
        times.add(t);
        double value = random.nextInt(1000) / 8.0 - 20;
        if (host.equals("c") && random.nextInt(40) == 0) {
          value = random.nextBoolean() ? Double.NaN : StaleMarker.VALUE;
        }
        values.add(value);
        long next = t + 1 + random.nextInt(45_000);
        long boundary = (t / (5 * MINUTE) + 1) * 5 * MINUTE;
        t = next >= boundary && random.nextInt(3) == 0 ? boundary : next; // samples on window edges
        if (host.equals("b") && random.nextInt(500) == 0) {
          t += 40 * MINUTE; // gaps longer than a lookback
        }
      }
      samples.add(Labels.of("__name__", "load", "host", host), times.stream().mapToLong(Long::longValue).toArray(),
          values.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }

  @Test
  void windowsAnswerAsTheSamplesDo() {
    for (String function : TierPlan.FUNCTIONS) {
      for (String range : new String[] {"5m", "1h", "3h"}) {
        for (String offset : new String[] {"", " offset 1h", " offset -2h"}) {
          String query = function + "(load[" + range + "]" + offset + ")";
          boolean rounding = function.equals("sum_over_time") || function.equals("avg_over_time");
          assertSameAnswer(query, T0, T0 + 24 * HOUR, HOUR, range.equals("5m") ? "5m" : "1h", rounding);
          assertSameAnswer(query, T0 + 5 * MINUTE, T0 + 10 * HOUR, 5 * MINUTE, "5m", rounding);
          // an end off the grid: the last step is the last multiple of the step before it
          assertSameAnswer(query, T0, T0 + 10 * HOUR + 17 * MINUTE + 3_001, HOUR, range.equals("5m") ? "5m" : "1h",
              rounding);
        }
      }
    }
    assertSameAnswer("load", T0, T0 + 24 * HOUR, HOUR, "1h", false);
    assertSameAnswer("timestamp(load offset 5m)", T0, T0 + 24 * HOUR, 5 * MINUTE, "5m", false);
    assertSameAnswer("max by (host) (max_over_time(load[2h])) - min_over_time(load[2h])", T0, T0 + 24 * HOUR,
        2 * HOUR, "1h", false);
    assertSameAnswer("sum(count_over_time(load[1h]))", T0, T0 + 24 * HOUR, HOUR, "1h", false);
  }

  @Test
  void samplesAnswerWhereATierCannot() {
    assertSameAnswer("max_over_time(load[1h])", T0 + 7_000, T0 + 24 * HOUR, HOUR, null, false);
    assertSameAnswer("max_over_time(load[1h])", T0, T0 + 24 * HOUR, 90_000, null, false);
    assertSameAnswer("max_over_time(load[90s])", T0, T0 + 24 * HOUR, HOUR, null, false);
    assertSameAnswer("max_over_time(load[1h] offset 30s)", T0, T0 + 24 * HOUR, HOUR, null, false);
    assertSameAnswer("rate(load[1h])", T0, T0 + 24 * HOUR, HOUR, null, false);
    assertSameAnswer("max_over_time(load[1h] @ " + (T0 + HOUR) / 1000 + ")", T0, T0 + 24 * HOUR, HOUR, null, false);
    assertSameAnswer("max_over_time(load[2h:5m])", T0, T0 + 24 * HOUR, HOUR, null, false);
    // one use that a tier cannot answer reads the selector's samples for all of them
    assertSameAnswer("max_over_time(load[1h]) + rate(load[1h])", T0, T0 + 24 * HOUR, HOUR, null, false);
    // another selector of the same query still reads its tier
    assertSameAnswer("max_over_time(load{host=\"a\"}[1h]) + on(host) rate(load[1h])", T0, T0 + 24 * HOUR, HOUR,
        "1h", false);
  }

  /** The tiered engine's answer equals the samples' and read the tier named (null: none). */
  private void assertSameAnswer(String query, long start, long end, long step, String tier, boolean rounding) {
    windowReads.clear();
    QueryResult fromTier = engine.range(query, start, end, step, QueryLimits.DEFAULT);
    assertEquals(tier == null ? List.of() : List.of(tier), fromTier.tiers(), query);
    assertEquals(tier == null ? List.of() : List.of(tier), windowReads.stream().distinct().toList(), query);
    QueryResult fromSamples = engine.withoutTiers().range(query, start, end, step, QueryLimits.DEFAULT);
    assertEquals(List.of(), fromSamples.tiers());
    SameMatrix.assertSameMatrix(fromSamples, fromTier, query, rounding);
  }
}
