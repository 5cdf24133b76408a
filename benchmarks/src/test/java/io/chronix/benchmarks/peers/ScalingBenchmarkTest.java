package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScalingBenchmarkTest {

  @Test
  void threadsAreGroupedByWhatTheyDo() {
    assertEquals(ScalingBenchmark.INGEST, ScalingBenchmark.group("chronix-http-N"));
    assertEquals(ScalingBenchmark.CHUNKS, ScalingBenchmark.group("chronix-chunk-w"));
    assertEquals(ScalingBenchmark.SOLR, ScalingBenchmark.group("qtpN-N"));
    assertEquals(ScalingBenchmark.JIT, ScalingBenchmark.group("CN CompilerThre"));
    assertEquals(ScalingBenchmark.GC, ScalingBenchmark.group("GC Thread#N"));
    assertEquals(ScalingBenchmark.LOAD_CLIENT, ScalingBenchmark.group("HttpClient-N-Worker-N"));
    assertEquals(ScalingBenchmark.SOLR_BACKGROUND, ScalingBenchmark.group("commitScheduler-N"));
    Map<String, Double> spent = ScalingBenchmark.byGroup(Map.of("chronix-http-N", 1.0, "qtpN-N", 2.0),
        Map.of("chronix-http-N", 3.5, "qtpN-N", 2.0, "CN CompilerThre", 9.0));
    assertEquals(Map.of(ScalingBenchmark.INGEST, 2.5, ScalingBenchmark.JIT, 9.0), spent);
  }

  @Test
  void theBottleneckIsTheStoresBusiestGroupAndTheModelUsesTheMeasuredCosts() {
    ScalingBenchmark.Row one = row(1, 1, 1.0, 0.5, 5.0);
    ScalingBenchmark.Row two = row(2, 1, 1.2, 0.5, 5.0);
    assertEquals(ScalingBenchmark.INGEST, one.bottleneck(), "the JIT and the client are not the store's bottleneck");
    assertEquals(1.0, one.cpuMicrosPerValue(ScalingBenchmark.INGEST), 1e-9);
    String model = ScalingBenchmark.model(List.of(one, two));
    // 1.0 us ingest + 0.5 us Solr, forwarding 2 x 0.2 us: one machine 2 cores / 1.5 us, two machines 2 x 2 / 1.7 us
    assertTrue(model.contains("| 1 | 1,333,333 |"), model);
    assertTrue(model.contains("| 2 | 2,352,941 |"), model);
    assertTrue(model.contains("a forwarded value 0.40 us more"), model);
  }

  /** One million values with the given CPU seconds of ingest and Solr threads (and a busy JIT). */
  private static ScalingBenchmark.Row row(int ingestNodes, int shards, double ingest, double solr, double jit) {
    return new ScalingBenchmark.Row(new ScalingBenchmark.Setup(ingestNodes, shards), 1_000_000, 1, 0.5,
        Map.of(ScalingBenchmark.INGEST, ingest, ScalingBenchmark.SOLR, solr, ScalingBenchmark.JIT, jit,
            ScalingBenchmark.LOAD_CLIENT, 9.0), 1, 1, 1);
  }
}
