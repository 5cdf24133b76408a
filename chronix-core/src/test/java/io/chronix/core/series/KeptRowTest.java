package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A kept row is its row (entries, hashes, arrays) and keeps one derived value and the id bits of its series. */
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

  @Test
  void aKeptRowKnowsTheSeriesItWasFoundToBe() {
    KeptRow kept = new KeptRow(new SortedArrayMap<>(new String[] {"host", "name"}, new String[] {"h1", "cpu"}));
    SeriesKey key = SeriesKey.metric("cpu", Map.of("host", "h1"));
    SeriesKey other = SeriesKey.metric("cpu", Map.of("host", "h2"));
    assertFalse(kept.isRowOf(key.idBits()), "known before it was found");
    assertFalse(kept.isRowOf(0), "the bits' default taken for a series");
    kept.keepSeriesOf(key);
    assertTrue(kept.isRowOf(key.idBits()));
    assertTrue(kept.isRowOf(SeriesKey.metric("cpu", Map.of("host", "h1")).idBits()), "an equal key's bits");
    assertFalse(kept.isRowOf(other.idBits()));
    assertEquals(Long.parseUnsignedLong(key.id(), 16), key.idBits(), "the bits the id prints");
  }
}
