package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SeriesFieldRowTest {

  private static final String[] NAMES = {"host", "name", "type"};

  @Test
  void equalToAndHashedAsAnyMapOfTheSameEntries() {
    SeriesFieldRow<String> row = new SeriesFieldRow<>(NAMES, new String[] {"h1", "cpu", "metric"});
    TreeMap<String, String> same = new TreeMap<>(Map.of("host", "h1", "name", "cpu", "type", "metric"));
    assertEquals(same, row);
    assertEquals(row, same);
    assertEquals(same.hashCode(), row.hashCode());
    assertEquals(row, SeriesFieldRow.of(same));
    assertEquals(List.copyOf(same.entrySet()), List.copyOf(row.entrySet()));
    assertNotEquals(row, new SeriesFieldRow<>(NAMES, new String[] {"h2", "cpu", "metric"}));
    assertNotEquals(row, new SeriesFieldRow<>(new String[] {"host", "name"}, new String[] {"h1", "cpu"}));
  }

  @Test
  void distinctInASetWhateverMapsTheRowsMeet() {
    Set<Map<String, String>> series = new HashSet<>();
    series.add(new SeriesFieldRow<>(NAMES, new String[] {"h1", "cpu", "metric"}));
    series.add(new SeriesFieldRow<>(NAMES, new String[] {new String("h1"), "cpu", "metric"}));
    series.add(new TreeMap<>(Map.of("host", "h1", "name", "cpu", "type", "metric")));
    series.add(new SeriesFieldRow<>(NAMES, new String[] {"h2", "cpu", "metric"}));
    assertEquals(2, series.size());
  }

  @Test
  void looksFieldsUp() {
    SeriesFieldRow<String> row = new SeriesFieldRow<>(NAMES, new String[] {"h1", "cpu", "metric"});
    assertEquals("cpu", row.get("name"));
    assertNull(row.get("dc"));
    assertNull(row.get(42));
    assertTrue(row.containsKey("type"));
    assertFalse(row.containsKey("dc"));
    assertEquals(3, row.size());
  }
}
