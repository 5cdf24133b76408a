package io.chronix.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LoadOptionsTest {

  /**
   * The load's JVM gets G1 in place of the configured collector, without the young generation's
   * floor set for the parallel one, and keeps every other default.
   */
  @Test
  void g1ReplacesTheConfiguredCollectorAndTheRestStays() {
    assertEquals("-Xms192m -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.3 -XX:+UseG1GC",
        Load.withG1("-XX:+UseParallelGC -Xms192m -XX:NewSize=12m -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.3"));
    assertEquals("-XX:+UseG1GC", Load.withG1(""));
    assertEquals("-Xss512k -XX:+UseG1GC", Load.withG1("-Xss512k -XX:+UseSerialGC"));
  }
}
