package io.chronix.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @Test
  void theCommandLineNamesTheLengthAndWhetherThePeerRunsToo() {
    assertEquals(new Load.Options(600, false), Load.Options.parse(new String[0]));
    assertEquals(new Load.Options(60, true), Load.Options.parse(new String[] {"--quick", "--peers"}));
    assertEquals(new Load.Options(150, false), Load.Options.parse(new String[] {"--minutes", "2.5"}));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Load.Options.parse(new String[] {"--peer"}));
    assertTrue(e.getMessage().startsWith("unknown option '--peer'; usage: benchmarks/run Load"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Load.Options.parse(new String[] {"--minutes"}));
    assertTrue(e.getMessage().startsWith("--minutes needs a number"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Load.Options.parse(new String[] {"--minutes", "ten"}));
    assertTrue(e.getMessage().startsWith("--minutes needs a number, not 'ten'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Load.Options.parse(new String[] {"--minutes", "0"}));
    assertTrue(e.getMessage().startsWith("the load needs at least a second"), e.getMessage());
  }
}
