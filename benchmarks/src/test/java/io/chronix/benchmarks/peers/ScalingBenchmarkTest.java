package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScalingBenchmarkTest {

  @Test
  void threadsAreGroupedByWhatTheyDo() {
    assertEquals(ThreadGroups.INGEST, ThreadGroups.group("chronix-http-N"));
    assertEquals(ThreadGroups.CHUNKS, ThreadGroups.group("chronix-chunk-w"));
    assertEquals(ThreadGroups.SOLR, ThreadGroups.group("qtpN-N"));
    assertEquals(ThreadGroups.JIT, ThreadGroups.group("CN CompilerThre"));
    assertEquals(ThreadGroups.GC, ThreadGroups.group("GC Thread#N"));
    assertEquals(ThreadGroups.LOAD_CLIENT, ThreadGroups.group("HttpClient-N-Worker-N"));
    assertEquals(ThreadGroups.SOLR_BACKGROUND, ThreadGroups.group("commitScheduler-N"));
    Map<String, Double> spent = ThreadGroups.byGroup(Map.of("chronix-http-N", 1.0, "qtpN-N", 2.0),
        Map.of("chronix-http-N", 3.5, "qtpN-N", 2.0, "CN CompilerThre", 9.0));
    assertEquals(Map.of(ThreadGroups.INGEST, 2.5, ThreadGroups.JIT, 9.0), spent);
  }

  @Test
  void theBottleneckIsTheStoresBusiestGroupAndTheModelUsesTheMeasuredCosts() {
    ScalingBenchmark.Row one = row(1, 1, 1.0, 0.5, 5.0);
    ScalingBenchmark.Row two = row(2, 1, 1.2, 0.5, 5.0);
    assertEquals(ThreadGroups.INGEST, one.bottleneck(), "the JIT and the client are not the store's bottleneck");
    assertEquals(1.0, one.cpuMicrosPerValue(ThreadGroups.INGEST), 1e-9);
    String model = ScalingBenchmark.model(List.of(one, two));
    // 1.0 us ingest + 0.5 us Solr, forwarding 2 x 0.2 us: one machine 2 cores / 1.5 us, two machines 2 x 2 / 1.7 us
    assertTrue(model.contains("| 1 | 1,333,333 |"), model);
    assertTrue(model.contains("| 2 | 2,352,941 |"), model);
    assertTrue(model.contains("a forwarded value 0.40 us more"), model);
  }

  /** One million values with the given CPU seconds of ingest and Solr threads (and a busy JIT). */
  private static ScalingBenchmark.Row row(int ingestNodes, int shards, double ingest, double solr, double jit) {
    return new ScalingBenchmark.Row(new ScalingBenchmark.Setup(ingestNodes, shards), 1_000_000, 1, 0.5,
        Map.of(ThreadGroups.INGEST, ingest, ThreadGroups.SOLR, solr, ThreadGroups.JIT, jit,
            ThreadGroups.LOAD_CLIENT, 9.0), 1, 1, 1);
  }
}
