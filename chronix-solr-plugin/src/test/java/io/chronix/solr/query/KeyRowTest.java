package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.KeptRow;
import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A key looked up among listing rows ({@link SeriesRows}) finds exactly its own row: the row its
 * fields make ({@link SeriesFields#firstValues}), with attribute names sorting before, between and
 * after the name and type fields, and none of the rows of keys that differ in one name, value or
 * field. A fleet's rows do not share their hashes.
 */
class KeyRowTest {

  private static final String[] NAMES = {"a_first", "dc", "host", "nic", "rack", "tier", "zone"};

  @Test
  void findsItsOwnRowAndNoOther() {
    Random random = new Random(1125);
    List<SeriesKey> keys = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Map<String, String> attributes = new TreeMap<>();
      for (String name : NAMES) {
        if (random.nextInt(3) == 0) {
          attributes.put(name, "v" + random.nextInt(3));
        }
      }
      keys.add(random.nextInt(6) == 0 ? new SeriesKey("m" + random.nextInt(3), "string", attributes)
          : SeriesKey.metric("m" + random.nextInt(3), attributes));
    }
    SeriesRows rows = new SeriesRows();
    Set<SeriesKey> distinct = new HashSet<>(keys);
    for (SeriesKey key : distinct) {
      rows.add(SeriesFields.of(key).firstValues());
      rows.add(SeriesFields.of(key).firstValues()); // twice: one row
    }
    assertEquals(distinct.size(), rows.rows().size());
    for (SeriesKey key : keys) {
      KeyRow probe = KeyRow.of(key);
      SeriesRows.Row own = new SeriesRows.Row(SeriesFields.of(key).firstValues());
      assertEquals(own.hashCode(), probe.hashCode(), key::toString);
      assertTrue(probe.equals(own), key::toString);
      assertTrue(rows.contains(key), key::toString);
    }
    int others = 0;
    for (SeriesKey key : distinct) {
      KeyRow probe = KeyRow.of(key);
      for (SeriesKey other : distinct) {
        if (!other.equals(key)) {
          others++;
          assertFalse(probe.equals(new SeriesRows.Row(SeriesFields.of(other).firstValues())),
              () -> key + " found as " + other);
        }
      }
    }
    assertTrue(others > 10_000, "pairs: " + others);
    // a series absent from the rows is not found, nor one whose row the key's probe cannot be
    assertFalse(rows.contains(SeriesKey.metric("m9", Map.of("host", "v1"))));
    SeriesKey named = SeriesKey.metric("m1", Map.of("name", "x"));
    assertFalse(rows.contains(named));
    rows.add(SeriesFields.of(named).firstValues());
    assertTrue(rows.contains(named), "a key with an attribute named as a field is looked up by its row");
  }

  /** The rows of 1,000 hosts in 10 data centres: as maps they had 201 distinct hashes, in order 1,000. */
  @Test
  void aFleetsRowsHaveHashesOfTheirOwn() {
    Set<Integer> hashes = new HashSet<>();
    for (int host = 0; host < 1_000; host++) {
      SeriesKey key = SeriesKey.metric("cpu_usage_percent",
          Map.of("dc", "dc" + host % 10, "host", String.format("h%04d", host), "job", "node"));
      hashes.add(KeyRow.of(key).hashCode());
    }
    assertEquals(1_000, hashes.size());
  }

  @Test
  void aKeyWithAnAttributeNamedAsAFieldMakesItsRow() {
    assertNull(KeyRow.of(SeriesKey.metric("cpu", Map.of("name", "x"))));
    assertNull(KeyRow.of(SeriesKey.metric("cpu", Map.of("type", "x"))));
  }

  /**
   * A segment's kept row found equal to a key keeps the key's id bits and is found by them after;
   * the bits do not make it equal to another key with the same hash, nor keep a row that is not the key's.
   */
  @Test
  void aKeptRowFoundOnceIsFoundByTheSeriesIdBits() {
    SeriesKey key = SeriesKey.metric("cpu", Map.of("dc", "dc1", "host", "h0042"));
    KeptRow kept = new KeptRow(SeriesFields.of(key).firstValues());
    SeriesRows.Row row = new SeriesRows.Row(kept);
    SeriesKey other = SeriesKey.metric("cpu", Map.of("dc", "dc1", "host", "h0043"));
    assertFalse(KeyRow.of(other).equals(row));
    assertFalse(kept.isRowOf(other.idBits()), "a key that is not the row's kept");
    assertTrue(KeyRow.of(key).equals(row));
    assertTrue(kept.isRowOf(key.idBits()), "the key's bits not kept");
    assertFalse(KeyRow.of(other).equals(row), "another key found by the kept bits");
    // an equal key of its own, as a series' next buffer makes it: found by the bits
    assertTrue(KeyRow.of(SeriesKey.metric("cpu", Map.of("dc", "dc1", "host", "h0042"))).equals(row));
    // a row whose entries are not the key's is never found, whatever bits it keeps
    KeptRow foreign = new KeptRow(SeriesFields.of(other).firstValues());
    foreign.keepSeriesOf(other);
    assertFalse(KeyRow.of(key).equals(new SeriesRows.Row(foreign)));
  }
}
