package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecordCacheSizeTest {

  @Test
  void autoIsASixthOfTheHeap() {
    assertEquals(64L << 20, RecordCacheSize.ofHeap(384L << 20), "the launcher's default heap");
    assertEquals(RecordCacheSize.ofHeap(Runtime.getRuntime().maxMemory()), RecordCacheSize.parse("auto"));
    assertEquals(RecordCacheSize.parse("auto"), RecordCacheSize.parse(" AUTO "));
    assertTrue(RecordCacheSize.ofHeap(Long.MAX_VALUE) > 0, "a JVM without a heap limit still gets a bound");
  }

  @Test
  void megabytesAsGiven() {
    assertEquals(0, RecordCacheSize.parse("0"));
    assertEquals(32L << 20, RecordCacheSize.parse("32"));
  }

  @Test
  void anythingElseIsRefusedWithTheSetting() {
    for (String bad : new String[] {"-1", "32MB", "", "1e3", String.valueOf(Long.MAX_VALUE)}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecordCacheSize.parse(bad));
      assertTrue(e.getMessage().contains("recordCacheMB") && e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }
}
