package io.chronix.analysis.promql.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.engine.Engine;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryLimits;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.engine.RangeCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine alone against Prometheus' PromQL test scripts, with the samples in memory: quick
 * feedback on semantics. The store-backed run in chronix-ingest is the one that counts.
 */
class EngineConformanceTest {

  @Test
  void everyScriptAgainstTheEngineInMemory() throws Exception {
    InMemorySource source = new InMemorySource();
    Engine engine = new Engine(source, Runnable::run);
    assertNoFailures(new MemoryBackend(source) {
      @Override
      public QueryResult range(String query, long start, long end, long step) {
        return engine.range(query, start, end, step, QueryLimits.DEFAULT);
      }
    });
  }

  /**
   * Every range eval answered by the range cache from an answer kept for the window a step
   * earlier or later (alternately): the step evaluated anew is joined to the kept ones, and the
   * whole must be what Prometheus expects. Loads tell the cache from their earliest sample on.
   */
  @Test
  void everyScriptWithRangesAnsweredFromKeptSteps() throws Exception {
    InMemorySource source = new InMemorySource();
    Engine engine = new Engine(source, Runnable::run);
    RangeCache cache = new RangeCache(64 << 20, Duration.ZERO, () -> Long.MAX_VALUE / 2);
    int[] evals = {0};
    assertNoFailures(new MemoryBackend(source) {
      @Override
      public void load(List<ConformanceRunner.LoadedSeries> series) {
        super.load(series);
        long earliest = Long.MAX_VALUE;
        for (ConformanceRunner.LoadedSeries s : series) {
          for (long t : s.timestamps()) {
            earliest = Math.min(earliest, t);
          }
        }
        cache.changedFrom(earliest);
      }

      @Override
      public void clear() {
        super.clear();
        cache.changedFrom(Long.MIN_VALUE);
      }

      @Override
      public QueryResult range(String query, long start, long end, long step) {
        long shift = evals[0]++ % 2 == 0 ? step : -step;
        try {
          cache.range(engine, query, start + shift, end + shift, step, QueryLimits.DEFAULT);
        } catch (PromQlException e) {
          // the asked window answers (or fails) on its own
        }
        return cache.range(engine, query, start, end, step, QueryLimits.DEFAULT);
      }
    });
    RangeCache.Stats stats = cache.stats();
    System.out.println("range cache over the scripts: " + stats);
    assertTrue(stats.partHits() >= 50, "answers joined from kept and evaluated steps: " + stats);
  }

  /** Series in memory; instant queries straight from the engine. */
  private abstract static class MemoryBackend implements ConformanceRunner.Backend {
    final InMemorySource source;
    final Engine engine;

    MemoryBackend(InMemorySource source) {
      this.source = source;
      this.engine = new Engine(source, Runnable::run);
    }

    @Override
    public void load(List<ConformanceRunner.LoadedSeries> series) {
      for (ConformanceRunner.LoadedSeries s : series) {
        source.add(s.labels(), s.timestamps(), s.values());
      }
    }

    @Override
    public void clear() {
      source.clear();
    }

    @Override
    public QueryResult instant(String query, long time) {
      return engine.instant(query, time, QueryLimits.DEFAULT);
    }
  }

  private static void assertNoFailures(ConformanceRunner.Backend backend) throws Exception {
    Path dir = Path.of(System.getProperty("chronix.promql.dir"));
    assertTrue(Files.isDirectory(dir), "PromQL test scripts not found at " + dir.toAbsolutePath());
    ConformanceRunner runner = new ConformanceRunner(backend);
    List<ConformanceRunner.Outcome> all = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".test")).sorted().toList();
    }
    for (Path file : files) {
      List<ConformanceRunner.Outcome> outcomes = runner.run(file);
      all.addAll(outcomes);
      long passed = outcomes.stream().filter(o -> o.status() == ConformanceRunner.Status.PASSED).count();
      long failed = outcomes.stream().filter(o -> o.status() == ConformanceRunner.Status.FAILED).count();
      long skipped = outcomes.stream().filter(o -> o.status() == ConformanceRunner.Status.SKIPPED).count();
      System.out.printf("%-20s passed %4d  failed %4d  skipped %4d%n", file.getFileName(), passed, failed, skipped);
    }
    List<String> failures = new ArrayList<>();
    for (ConformanceRunner.Outcome o : all) {
      if (o.status() == ConformanceRunner.Status.SKIPPED && Boolean.getBoolean("chronix.promql.showSkips")) {
        System.out.println("SKIP " + o.file() + ":" + o.line() + " " + o.query() + "\n     " + o.reason());
      }
      if (o.status() == ConformanceRunner.Status.FAILED) {
        failures.add(o.file() + ":" + o.line() + " " + o.query() + ": " + o.reason());
      }
    }
    failures.forEach(f -> System.out.println("FAIL " + f));
    assertTrue(failures.isEmpty(), failures.size() + " evals failed, first: " + (failures.isEmpty() ? "" : failures.get(0)));
  }
}
