package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A selector evaluated at one time only is read as each series' latest sample in its window
 * ({@link SeriesSource#selectLatest}), one evaluated at a range query's steps only as each series'
 * latest sample at or before each step ({@link SeriesSource#selectSteps}); everything else is read
 * whole. The answers must be those of the whole samples, stale markers and series that end early
 * included.
 */
class LatestSamplesTest {

  private static final QueryLimits LIMITS = QueryLimits.DEFAULT;

  /** The test data, read whole by {@link #select}, which counts its calls. */
  private abstract static class CountingSource implements SeriesSource {
    final InMemorySource all;
    int wholeCalls;

    CountingSource(InMemorySource all) {
      this.all = all;
    }

    @Override
    public List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
      wholeCalls++;
      return all.select(matchers, minTime, maxTime);
    }
  }

  /** A source that keeps only each series' latest sample where asked for that, counting the calls. */
  private static final class TrimmingSource extends CountingSource {
    int latestCalls;

    TrimmingSource(InMemorySource all) {
      super(all);
    }

    @Override
    public List<RawSeries> selectLatest(List<LabelMatcher> matchers, long minTime, long maxTime) {
      latestCalls++;
      List<RawSeries> latest = new ArrayList<>();
      for (RawSeries s : all.select(matchers, minTime, maxTime)) {
        int last = s.size() - 1;
        latest.add(new RawSeries(s.labels(), new long[] {s.timestamp(last)}, new double[] {s.value(last)}, 1));
      }
      return latest;
    }
  }

  /** A source that keeps only each series' latest sample at or before each step where asked for that. */
  private static final class StepSource extends CountingSource {
    int stepCalls;

    StepSource(InMemorySource all) {
      super(all);
    }

    @Override
    public List<RawSeries> selectSteps(List<LabelMatcher> matchers, long minTime, long maxTime, long firstStep,
        long step) {
      stepCalls++;
      List<RawSeries> kept = new ArrayList<>();
      for (RawSeries s : all.select(matchers, minTime, maxTime)) {
        List<Integer> indexes = new ArrayList<>();
        for (long t = firstStep; t <= maxTime; t += step) {
          int latest = s.upperBound(t) - 1;
          if (latest >= 0 && (indexes.isEmpty() || indexes.get(indexes.size() - 1) < latest)) {
            indexes.add(latest);
          }
        }
        long[] ts = new long[indexes.size()];
        double[] vs = new double[indexes.size()];
        for (int i = 0; i < ts.length; i++) {
          ts[i] = s.timestamp(indexes.get(i));
          vs[i] = s.value(indexes.get(i));
        }
        kept.add(new RawSeries(s.labels(), ts, vs, ts.length));
      }
      return kept;
    }
  }

  @Test
  void selectorsAtARangeQuerysStepsAnswerFromTheStepsLatestSamples() {
    InMemorySource all = data();
    Engine whole = new Engine(all, Runnable::run);
    String[] atSteps = {"m1", "m1 offset 2m", "timestamp(m1)", "sum by (host) (m1)", "m1 - m2", "count(m1 > 0.5)",
        "topk(2, m1)", "m1 offset 1m - m1 offset 1m", "-m2"};
    String[] wholeReads = {"rate(m1[5m])", "max_over_time(m1[10m:1m])", "m1 - m1 offset 1m", "m1 + last_over_time(m1[3m])",
        "m1 @ 1800"};
    for (long[] grid : new long[][] {{600_000, 1_800_000, 60_000}, {0, 3_700_000, 47_000}, {747_000, 3_600_000, 7_000}}) {
      for (String query : atSteps) {
        StepSource trimmed = new StepSource(all);
        assertSameRange(whole, trimmed, query, grid);
        assertTrue(trimmed.stepCalls > 0 && trimmed.wholeCalls == 0,
            query + ": at steps " + trimmed.stepCalls + ", whole " + trimmed.wholeCalls);
      }
      for (String query : wholeReads) {
        StepSource trimmed = new StepSource(all);
        assertSameRange(whole, trimmed, query, grid);
        assertEquals(0, trimmed.stepCalls, query);
      }
    }
    StepSource instant = new StepSource(all);
    new Engine(instant, Runnable::run).instant("m1", 1_800_000, LIMITS);
    assertEquals(0, instant.stepCalls, "an instant query reads the latest samples, not steps");
  }

  /** The range query over {@code grid} (start, end, step) answers the same from {@code source} as from all samples. */
  private static void assertSameRange(Engine whole, SeriesSource source, String query, long[] grid) {
    assertEquals(text(whole.range(query, grid[0], grid[1], grid[2], LIMITS)), text(new Engine(source, Runnable::run)
        .range(query, grid[0], grid[1], grid[2], LIMITS)), query + " over " + java.util.Arrays.toString(grid));
  }

  /** A range query's answer with its samples spelled out (the result's arrays compare by identity). */
  private static String text(QueryResult result) {
    StringBuilder text = new StringBuilder();
    for (QueryResult.Series series : ((QueryResult.Matrix) result.data()).series()) {
      text.append(series.labels()).append(' ')
          .append(java.util.Arrays.toString(java.util.Arrays.copyOf(series.timestamps(), series.size()))).append(' ')
          .append(java.util.Arrays.toString(java.util.Arrays.copyOf(series.values(), series.size()))).append('\n');
    }
    return text.toString();
  }

  private static InMemorySource data() {
    InMemorySource source = new InMemorySource();
    Random random = new Random(11);
    for (String metric : new String[] {"m1", "m2"}) {
      for (int host = 0; host < 6; host++) {
        int n = host == 5 ? 40 : 240; // one series ends after 10 minutes
        long[] t = new long[n];
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
          t[i] = i * 15_000L + random.nextInt(3_000);
          v[i] = host == 3 && i % 50 == 49 ? StaleMarker.VALUE : random.nextDouble();
        }
        source.add(Labels.of("__name__", metric, "host", "h" + host), t, v);
      }
    }
    return source;
  }

  @Test
  void instantSelectorsAnswerFromTheLatestSamples() {
    InMemorySource all = data();
    Engine whole = new Engine(all, Runnable::run);
    String[] latestOnly = {"m1", "m1 offset 2m", "m1 @ 1800", "timestamp(m1)", "sum by (host) (m1)", "m1 - m2",
        "count(m1 > 0.5)", "absent(m3)", "topk(2, m1)", "m1 @ 600 + m1 @ 600"};
    String[] wholeOnly = {"rate(m1[5m])", "max_over_time(m1[10m:1m])", "m1 @ 600 + m1 @ 1200", "last_over_time(m2[3m])"};
    for (long time : new long[] {600_000, 747_000, 2_400_000, 3_599_000, 3_700_000}) {
      for (String query : latestOnly) {
        TrimmingSource trimmed = new TrimmingSource(all);
        assertEquals(whole.instant(query, time, LIMITS).data(), new Engine(trimmed, Runnable::run)
            .instant(query, time, LIMITS).data(), query + " at " + time);
        assertTrue(trimmed.latestCalls > 0 && trimmed.wholeCalls == 0 || query.startsWith("absent"),
            query + ": latest " + trimmed.latestCalls + ", whole " + trimmed.wholeCalls);
      }
      for (String query : wholeOnly) {
        TrimmingSource trimmed = new TrimmingSource(all);
        assertEquals(whole.instant(query, time, LIMITS).data(), new Engine(trimmed, Runnable::run)
            .instant(query, time, LIMITS).data(), query + " at " + time);
        assertEquals(0, trimmed.latestCalls, query);
      }
    }
    TrimmingSource ranged = new TrimmingSource(all);
    new Engine(ranged, Runnable::run).range("m1", 600_000, 1_200_000, 60_000, LIMITS);
    assertEquals(0, ranged.latestCalls, "a range query evaluates its selector at every step");
    new Engine(ranged, Runnable::run).range("m1 @ 900", 600_000, 1_200_000, 60_000, LIMITS);
    assertEquals(1, ranged.latestCalls, "an @ selector is evaluated at one time in every step");
  }
}
