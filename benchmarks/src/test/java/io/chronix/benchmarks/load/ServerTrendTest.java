package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.benchmarks.load.ServerSampler.CollectorTotals;
import io.chronix.benchmarks.load.ServerSampler.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerTrendTest {

  static final long START = 1_000_000;

  /** A sample a second; heap after GC as given, the collector's totals as given. */
  static Sample sample(int second, long heapAfterGc, CollectorTotals collections) {
    return new Sample(START + second * 1000L, 100 << 20, second * 0.5, second * 0.1, 200 << 20, heapAfterGc,
        50 << 20, 1_000, 10, collections);
  }

  @Test
  void collectionsAreCountedOverTheInjectionAndItsLastThird() {
    List<Sample> samples = new ArrayList<>();
    for (int second = 0; second <= 90; second++) {
      // one collection of 20 ms a second for the first 60 s, then one of 40 ms every other second
      long count = second <= 60 ? second : 60 + (second - 60) / 2;
      long millis = second <= 60 ? 20L * second : 1200 + 40L * ((second - 60) / 2);
      samples.add(sample(second, 100 << 20, new CollectorTotals(count, millis)));
    }
    samples.add(sample(-5, 1, new CollectorTotals(0, 0))); // before the injection: not counted
    samples.sort(java.util.Comparator.comparingLong(Sample::epochMillis));
    ServerTrend trend = new ServerTrend(samples, START, 90);
    assertEquals("Collector: 75 collections, 1,800 ms in all (2.0 % of 90 s), 24.0 ms each on average; in the last"
        + " third 15 collections, 600 ms in all (2.0 % of 30 s), 40.0 ms each on average.\n", trend.collections());
    assertTrue(trend.markdown().endsWith(trend.collections()), trend.markdown());
  }

  @Test
  void samplesWithoutTheCollectorsFiguresAreLeftOut() {
    List<Sample> samples = new ArrayList<>();
    for (int second = 0; second <= 30; second++) {
      CollectorTotals totals = second % 2 == 1 ? CollectorTotals.UNKNOWN : new CollectorTotals(second, 10L * second);
      samples.add(sample(second, 100 << 20, totals));
    }
    ServerTrend trend = new ServerTrend(samples, START, 30);
    assertEquals("Collector: 30 collections, 300 ms in all (1.0 % of 30 s), 10.0 ms each on average; in the last"
        + " third 10 collections, 100 ms in all (1.0 % of 10 s), 10.0 ms each on average.\n", trend.collections());
  }

  @Test
  void noFiguresNoClaims() {
    List<Sample> samples = new ArrayList<>();
    for (int second = 0; second <= 9; second++) {
      samples.add(sample(second, 100 << 20, second < 7 ? new CollectorTotals(3, 30) : CollectorTotals.UNKNOWN));
    }
    ServerTrend trend = new ServerTrend(samples, START, 9);
    assertEquals("Collector: no collection in 6 s; in the last third not measured.\n", trend.collections());
  }

  @Test
  void heapAfterGcThatRisesByMoreThanTheToleranceGrows() {
    List<Sample> samples = new ArrayList<>();
    for (int second = 0; second < 30; second++) {
      samples.add(sample(second, second < 20 ? 100 << 20 : 120 << 20, new CollectorTotals(second, second)));
    }
    assertTrue(new ServerTrend(samples, START, 30).growth().startsWith("heap after GC GROWS (+20%)"),
        new ServerTrend(samples, START, 30).growth());
  }
}
