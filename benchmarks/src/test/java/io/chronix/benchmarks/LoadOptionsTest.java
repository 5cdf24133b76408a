package io.chronix.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LoadOptionsTest {

  /**
   * The load's JVM gets G1 in place of the configured collector, without the young generation's
   * floor set for the parallel one, its heap started whole and touched in place of the configured
   * start, and keeps every other default.
   */
  @Test
  void g1AndAWholeHeapReplaceTheConfiguredCollectorAndStartAndTheRestStays() {
    assertEquals("-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.3 -XX:+UseG1GC -Xms2g -XX:+AlwaysPreTouch",
        Load.forLargeHeap("-XX:+UseParallelGC -Xms192m -XX:NewSize=12m -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.3",
            "2g"));
    assertEquals("-XX:+UseG1GC -Xms2g -XX:+AlwaysPreTouch", Load.forLargeHeap("", "2g"));
    assertEquals("-Xss512k -XX:+UseG1GC -Xms3g -XX:+AlwaysPreTouch", Load.forLargeHeap("-Xss512k -XX:+UseSerialGC", "3g"));
  }
}
