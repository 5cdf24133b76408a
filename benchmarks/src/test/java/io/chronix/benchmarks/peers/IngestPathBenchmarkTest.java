package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesBuffers;
import org.junit.jupiter.api.Test;

class IngestPathBenchmarkTest {

  /**
   * A pass over the stream's bodies buffers each series' points once, in order and below a chunk,
   * as the comparison's stream does; the next pass starts with buffers of its own.
   */
  @Test
  void eachPassOverTheStreamBuffersItsPointsOnceIntoNewBuffers() throws Exception {
    IngestPathBenchmark benchmark = new IngestPathBenchmark();
    benchmark.load = "stream";
    benchmark.prepare();
    try {
      int rounds = PeerComparison.Plan.of(false).syntheticRounds();
      SeriesBuffers first = null;
      for (int request = 0; request < rounds; request++) {
        benchmark.startPass();
        first = request == 0 ? benchmark.buffers : first;
        assertEquals(10_000, benchmark.request());
      }
      assertEquals(10_000L * rounds, first.bufferedPoints());
      assertEquals(10_000, first.keys().size());
      for (SeriesKey key : first.keys()) {
        Points points = first.snapshot(key);
        assertEquals(rounds, points.size(), key.toString());
        assertTrue(points.isStrictlyIncreasing(), key.toString());
      }

      benchmark.startPass();
      benchmark.request();
      assertNotSame(first, benchmark.buffers);
      assertEquals(10_000, benchmark.buffers.bufferedPoints());
    } finally {
      benchmark.close();
    }
  }
}
