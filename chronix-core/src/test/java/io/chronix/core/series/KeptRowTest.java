package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A kept row is its row (entries, hashes, arrays) and keeps one derived value. */
class KeptRowTest {

  @Test
  void aKeptRowIsItsRowAndKeepsWhatIsDerived() {
    SortedArrayMap<String> row = new SortedArrayMap<>(new String[] {"host", "name"}, new String[] {"h1", "cpu"});
    KeptRow kept = new KeptRow(row);
    assertEquals(row, kept);
    assertEquals(Map.of("host", "h1", "name", "cpu"), kept);
    assertEquals(row.orderedHashCode(), kept.orderedHashCode());
    assertTrue(kept.sameEntries(row));
    assertSame(row.names, kept.names, "the names' array copied");
    assertSame(row.values, kept.values, "the values' array copied");
    assertNull(kept.derived());
    Object derived = new Object();
    kept.keep(derived);
    assertSame(derived, kept.derived());
  }
}
