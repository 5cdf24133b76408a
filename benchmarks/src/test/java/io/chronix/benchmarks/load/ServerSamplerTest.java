package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.benchmarks.load.ServerSampler.Sample;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerSamplerTest {

  /**
   * A server that is no Chronix JVM (VictoriaMetrics under the peers' load) is sampled for its
   * process alone: resident memory and CPU, and the figures it cannot give as unknown.
   */
  @Test
  void anotherServerIsSampledForItsProcessAlone() throws Exception {
    List<Sample> samples;
    try (ServerSampler sampler = ServerSampler.processOnly(ProcessHandle.current().pid(), Duration.ofMillis(20))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (sampler.samples().size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      samples = sampler.samples();
    }
    assertTrue(samples.size() >= 2, samples.toString());
    for (Sample sample : samples) {
      assertTrue(sample.rssBytes() > 0, sample.toString());
      assertTrue(sample.cpuSeconds() > 0, sample.toString());
      assertEquals(-1, sample.heapUsed());
      assertEquals(-1, sample.heapAfterGc());
      assertEquals(-1, sample.bufferBytes());
      assertEquals(-1, sample.activeSeries());
      assertFalse(sample.collections().known());
    }
  }
}
