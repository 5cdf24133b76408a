package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class IngestRoundsTest {

  @Test
  void serversTakeTurnsGoingFirst() {
    List<String> servers = List.of("VictoriaMetrics", "Chronix");
    assertEquals(servers, IngestRounds.order(servers, 0));
    assertEquals(List.of("Chronix", "VictoriaMetrics"), IngestRounds.order(servers, 1));
    assertEquals(servers, IngestRounds.order(servers, 2));
    assertEquals(servers, List.of("VictoriaMetrics", "Chronix"), "the caller's list stays as it was");
  }

  @Test
  void medianOfOddAndEvenCounts() {
    assertEquals(3.0, IngestRounds.median(new double[] {5, 1, 3}));
    assertEquals(2.5, IngestRounds.median(new double[] {4, 1, 3, 2}));
    assertEquals(7.0, IngestRounds.median(new double[] {7}));
  }
}
