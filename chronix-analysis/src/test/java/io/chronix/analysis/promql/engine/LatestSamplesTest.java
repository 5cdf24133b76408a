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
 * ({@link SeriesSource#selectLatest}); everything else is read whole. The answers must be those of
 * the whole samples, stale markers and series that end early included.
 */
class LatestSamplesTest {

  private static final QueryLimits LIMITS = QueryLimits.DEFAULT;

  /** A source that keeps only each series' latest sample where asked for that, counting the calls. */
  private static final class TrimmingSource implements SeriesSource {
    final InMemorySource all;
    int latestCalls;
    int wholeCalls;

    TrimmingSource(InMemorySource all) {
      this.all = all;
    }

    @Override
    public List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
      wholeCalls++;
      return all.select(matchers, minTime, maxTime);
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
