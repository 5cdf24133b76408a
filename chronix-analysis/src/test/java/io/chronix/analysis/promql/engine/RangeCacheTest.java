package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Range answers from kept steps are the engine's own answers: for every query of Prometheus' test
 * scripts, over windows that overlap a kept one on either side, inside it and around it; and after
 * every kind of change the store tells, the next answer holds the change.
 */
class RangeCacheTest {

  private static final QueryLimits LIMITS = QueryLimits.DEFAULT.withTimeout(Duration.ofSeconds(5));
  private static final long S = 1_000;
  /** Windows on one grid of 30 s, in the order they are asked: kept, later, earlier, inside, around. */
  private static final long[][] WINDOWS = {
      {60 * S, 300 * S}, {120 * S, 420 * S}, {0, 240 * S}, {90 * S, 210 * S}, {0, 600 * S}};

  @Test
  void everyQueryOfTheScriptsAnswersFromKeptStepsAsTheEngineDoes() throws Exception {
    assertTrue(answersAlikeInParts(MutatedQueryTest.corpus()) > 2_000);
  }

  @Test
  void theChronixFunctionsAnswerFromKeptStepsAsTheEngineDoes() {
    assertEquals(6 * WINDOWS.length, answersAlikeInParts(List.of("chronix_outlier(metric[2m])",
        "chronix_trend(metric[2m])", "chronix_fastdtw(metric[2m], metric{job=\"api\"}[2m], 5)",
        "chronix_frequency(metric[2m], 60, 5)", "chronix_sax_match(metric[2m], \"*\", 8, 4, 0.01)",
        "chronix_movavg(metric[2m], 60)")));
  }

  /** A grid's steps kept answer no window of another grid: the same step, 15 s later. */
  @Test
  void stepsOfAnotherGridAreNotKeptSteps() {
    long[][] shifted = {{60 * S, 300 * S}, {75 * S, 315 * S}, {45 * S, 285 * S}, {60 * S, 300 * S}};
    assertEquals(4 * shifted.length, answersAlikeInParts(List.of("metric", "rate(metric[2m])", "sum(metric)",
        "chronix_outlier(metric[2m])"), shifted));
  }

  private static int answersAlikeInParts(List<String> queries) {
    return answersAlikeInParts(queries, WINDOWS);
  }

  /** Asks each query over the windows through one cache; returns how many answers it compared. */
  private static int answersAlikeInParts(List<String> queries, long[][] windows) {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    int compared = 0;
    int notKept = 0;
    List<String> differences = new ArrayList<>();
    for (String query : queries) {
      RangeCache cache = new RangeCache(64 << 20, Duration.ZERO, () -> 1_000_000 * S);
      for (long[] window : windows) {
        QueryResult expected;
        try {
          expected = engine.range(query, window[0], window[1], 30 * S, LIMITS);
        } catch (PromQlException e) {
          break; // not a range query, or one the engine refuses: the cache must refuse it too
        }
        QueryResult actual = cache.range(engine, query, window[0], window[1], 30 * S, LIMITS);
        String difference = difference(expected, actual);
        if (difference != null) {
          differences.add(query + " over " + window[0] / S + "-" + window[1] / S + " s: " + difference);
        }
        compared++;
      }
      RangeCache.Stats stats = cache.stats();
      if (stats.hits() + stats.partHits() == 0) {
        notKept++;
      }
    }
    differences.stream().limit(20).forEach(d -> System.out.println("DIFFERENT " + d));
    System.out.printf("range cache: %d answers compared, %d queries never answered from kept steps%n", compared,
        notKept);
    assertEquals(List.of(), differences);
    return compared;
  }

  @Test
  void aQueryTheRangeDecidesIsEvaluatedWhole() {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    for (String query : List.of("metric @ start()", "metric @ 100", "metric offset -1m", "limitk(1, metric)",
        "metric * 0 + start()", "end() - time()", "range()")) {
      RangeCache cache = new RangeCache(64 << 20, Duration.ZERO, () -> 1_000_000 * S);
      for (long[] window : WINDOWS) {
        QueryResult expected = engine.range(query, window[0], window[1], 30 * S, LIMITS);
        assertEquals(null, difference(expected, cache.range(engine, query, window[0], window[1], 30 * S, LIMITS)),
            query);
      }
      assertEquals(new RangeCache.Stats(0, 0, 0, 0, 0), cache.stats(), query + " is never kept");
    }
  }

  @Test
  void aLateWriteDropsTheKeptStepsFromItsTimeOn() {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    RangeCache cache = new RangeCache(64 << 20, Duration.ofMinutes(5), () -> 1_000_000 * S);
    String query = "sum(metric)";
    cache.range(engine, query, 0, 600 * S, 30 * S, LIMITS);
    source.add(Labels.of("__name__", "metric", "job", "late"), new long[] {300 * S}, new double[] {1000});
    cache.changedFrom(300 * S); // on a step: that step reads it
    assertEquals(null, difference(engine.range(query, 0, 600 * S, 30 * S, LIMITS),
        cache.range(engine, query, 0, 600 * S, 30 * S, LIMITS)), "the late sample counts from 300 s on");
    assertEquals(1, cache.stats().partHits(), "the steps before 300 s were kept");
    cache.range(engine, query, 0, 600 * S, 30 * S, LIMITS);
    assertEquals(1, cache.stats().hits(), "kept again, with the late sample");
  }

  @Test
  void stepsNearTheClockAreNotKept() {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    // steps up to 300 s are a horizon before the clock: those after it may still get samples
    RangeCache cache = new RangeCache(64 << 20, Duration.ofSeconds(100), () -> 400 * S);
    String query = "max(metric)";
    cache.range(engine, query, 0, 600 * S, 30 * S, LIMITS);
    source.add(Labels.of("__name__", "metric", "job", "new"), new long[] {350 * S}, new double[] {1000});
    // not even told: a change within the horizon finds no step kept
    assertEquals(null, difference(engine.range(query, 0, 600 * S, 30 * S, LIMITS),
        cache.range(engine, query, 0, 600 * S, 30 * S, LIMITS)));
    assertEquals(1, cache.stats().partHits());
  }

  @Test
  void anEvaluationAChangeCameDuringKeepsNothing() {
    InMemorySource memory = MutatedQueryTest.source();
    AtomicBoolean changeWhileReading = new AtomicBoolean(true);
    RangeCache[] cache = new RangeCache[1];
    SeriesSource source = new SeriesSource() {
      @Override
      public List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
        List<RawSeries> read = memory.select(matchers, minTime, maxTime);
        if (changeWhileReading.getAndSet(false)) {
          cache[0].changedFrom(0); // a write the evaluation may or may not have read
        }
        return read;
      }
    };
    Engine engine = new Engine(source, Runnable::run);
    cache[0] = new RangeCache(64 << 20, Duration.ZERO, () -> 1_000_000 * S);
    cache[0].range(engine, "metric", 0, 600 * S, 30 * S, LIMITS);
    assertEquals(0, cache[0].stats().answers());
    cache[0].range(engine, "metric", 0, 600 * S, 30 * S, LIMITS);
    cache[0].range(engine, "metric", 0, 600 * S, 30 * S, LIMITS);
    assertEquals(new RangeCache.Stats(1, 0, 2, cache[0].stats().bytes(), 1), cache[0].stats());
  }

  @Test
  void aChangeAnywhereLetsGoOfAllAndKeepsNothingUntilTheStoreSettled() {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    AtomicLong clock = new AtomicLong(1_000_000 * S);
    RangeCache cache = new RangeCache(64 << 20, Duration.ZERO, clock::get);
    cache.range(engine, "metric", 0, 600 * S, 30 * S, LIMITS);
    cache.range(engine, "rate(http_requests_total[1m])", 0, 600 * S, 30 * S, LIMITS);
    assertEquals(2, cache.stats().answers());
    cache.changedAll();
    assertEquals(0, cache.stats().answers());
    cache.range(engine, "metric", 0, 600 * S, 30 * S, LIMITS);
    assertEquals(0, cache.stats().answers(), "an update sent to Solr shows within a second after its request");
    clock.addAndGet(RangeCache.SETTLE_MILLIS);
    cache.range(engine, "metric", 0, 600 * S, 30 * S, LIMITS);
    assertEquals(1, cache.stats().answers());
  }

  @Test
  void keepsNoMoreThanItsBytesLeastRecentlyUsedFirst() {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    RangeCache cache = new RangeCache(2_000, Duration.ZERO, () -> 1_000_000 * S);
    cache.range(engine, "metric", 0, 600 * S, 10 * S, LIMITS); // two series of 61 steps: over a quarter
    assertEquals(0, cache.stats().answers());
    for (int i = 0; i < 20; i++) {
      cache.range(engine, "sum(metric) + " + i, 0, 300 * S, 30 * S, LIMITS);
      assertTrue(cache.stats().bytes() <= 2_000, cache.stats().toString());
    }
    int kept = cache.stats().answers();
    assertTrue(kept > 1 && kept < 20, "kept " + kept);
    cache.range(engine, "sum(metric) + 19", 0, 300 * S, 30 * S, LIMITS);
    assertEquals(1, cache.stats().hits(), "the latest is still kept");
    cache.range(engine, "sum(metric) + 0", 0, 300 * S, 30 * S, LIMITS);
    assertEquals(1, cache.stats().hits(), "the oldest went first");
  }

  @Test
  void aJoinedAnswerCarriesTheAnnotationsOfItsParts() {
    InMemorySource source = MutatedQueryTest.source();
    Engine engine = new Engine(source, Runnable::run);
    RangeCache cache = new RangeCache(64 << 20, Duration.ZERO, () -> 1_000_000 * S);
    String query = "rate(metric[1m])"; // not a counter by its name: Prometheus' info says so
    QueryResult expected = engine.range(query, 0, 300 * S, 30 * S, LIMITS);
    assertFalse(expected.infos().isEmpty());
    cache.range(engine, query, 0, 240 * S, 30 * S, LIMITS);
    QueryResult joined = cache.range(engine, query, 0, 300 * S, 30 * S, LIMITS);
    assertEquals(1, cache.stats().partHits());
    assertEquals(expected.infos(), joined.infos());
    assertEquals(expected.warnings(), joined.warnings());
  }

  /**
   * Late writes racing with queries: a writer overwrites one sample after another with ever larger
   * values and tells each; every answer asked after a change was told shows it, whether its steps
   * were kept, joined or evaluated.
   */
  @Test
  void everyAnswerAskedAfterAChangeWasToldShowsIt() throws Exception {
    InMemorySource memory = new InMemorySource();
    long[] times = new long[61];
    for (int i = 0; i < times.length; i++) {
      times[i] = i * 10 * S;
    }
    memory.add(Labels.of("__name__", "late"), times, new double[times.length]);
    Object lock = new Object();
    SeriesSource source = (matchers, minTime, maxTime) -> {
      synchronized (lock) {
        return memory.select(matchers, minTime, maxTime);
      }
    };
    Engine engine = new Engine(source, Runnable::run);
    RangeCache cache = new RangeCache(64 << 20, Duration.ZERO, () -> 1_000_000 * S);
    int changes = 1_000;
    long[] changedAt = new long[changes + 1];
    AtomicLong told = new AtomicLong();
    List<String> stale = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread writer = new Thread(() -> {
      java.util.Random random = new java.util.Random(7);
      for (int k = 1; k <= changes; k++) {
        long at = times[random.nextInt(times.length)];
        changedAt[k] = at;
        synchronized (lock) {
          memory.add(Labels.of("__name__", "late"), new long[] {at}, new double[] {k});
        }
        cache.changedFrom(at);
        told.set(k);
        java.util.concurrent.locks.LockSupport.parkNanos(200_000); // queries in between, kept or not
      }
    });
    Runnable reader = () -> {
      java.util.Random random = new java.util.Random(Thread.currentThread().getId());
      while (told.get() < changes) {
        long k = told.get();
        long at = changedAt[(int) k];
        long start = k == 0 ? 0 : Math.min(at, random.nextInt(times.length) * 10 * S);
        QueryResult answer = cache.range(engine, "late", start, 600 * S, 10 * S, LIMITS);
        if (k > 0) {
          QueryResult.Series late = ((QueryResult.Matrix) answer.data()).series().get(0);
          int step = Points.lowerBound(late.timestamps(), late.size(), at);
          if (late.values()[step] < k) {
            stale.add("change " + k + " at " + at / S + " s: " + late.values()[step] + " from " + start / S + " s");
          }
        }
      }
    };
    Thread[] readers = {new Thread(reader), new Thread(reader)};
    for (Thread t : readers) {
      t.start();
    }
    writer.start();
    writer.join();
    for (Thread t : readers) {
      t.join();
    }
    assertEquals(List.of(), stale.subList(0, Math.min(5, stale.size())));
    RangeCache.Stats stats = cache.stats();
    assertTrue(stats.hits() + stats.partHits() > 0, "answers came from kept steps too: " + stats);
  }

  /** Null where both answers hold the same series, steps and values (bit for bit), else what differs. */
  static String difference(QueryResult expected, QueryResult actual) {
    List<QueryResult.Series> e = ((QueryResult.Matrix) expected.data()).series();
    List<QueryResult.Series> a = ((QueryResult.Matrix) actual.data()).series();
    if (e.size() != a.size()) {
      return e.size() + " series expected, " + a.size() + " answered";
    }
    for (int s = 0; s < e.size(); s++) {
      QueryResult.Series x = e.get(s);
      QueryResult.Series y = a.get(s);
      if (!x.labels().equals(y.labels()) || x.size() != y.size()) {
        return x.labels() + " (" + x.size() + " steps) expected, " + y.labels() + " (" + y.size() + ") answered";
      }
      for (int i = 0; i < x.size(); i++) {
        if (x.timestamps()[i] != y.timestamps()[i]
            || Double.doubleToLongBits(x.values()[i]) != Double.doubleToLongBits(y.values()[i])) {
          return x.labels() + " at step " + i + ": " + x.timestamps()[i] + "=" + x.values()[i] + " expected, "
              + y.timestamps()[i] + "=" + y.values()[i] + " answered";
        }
      }
    }
    return null;
  }
}
