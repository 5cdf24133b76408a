package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What is kept is served back as kept; the set never holds more than its bound. */
class KeptByKeyTest {

  @Test
  void keepsAndServesWhatItWasGiven() {
    KeptByKey<String, Object> kept = new KeptByKey<>(4);
    Object value = new Object();
    assertNull(kept.get("a"));
    assertSame(value, kept.keep("a", value));
    assertSame(value, kept.get("a"));
    assertEquals(1, kept.size());
  }

  @Test
  void startsAgainWhenFull() {
    KeptByKey<Integer, Integer> kept = new KeptByKey<>(3);
    for (int i = 0; i < 10; i++) {
      kept.keep(i, i);
      assertTrue(kept.size() <= 3, kept.size() + " kept");
      assertEquals(i, kept.get(i), "the last one kept is there");
    }
  }

  @Test
  void aBoundBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new KeptByKey<>(0));
  }
}
