package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SortedArrayMapTest {

  private static final String[] NAMES = {"host", "name", "type"};

  @Test
  void equalToAndHashedAsAnyMapOfTheSameEntries() {
    SortedArrayMap<String> row = new SortedArrayMap<>(NAMES, new String[] {"h1", "cpu", "metric"});
    TreeMap<String, String> same = new TreeMap<>(Map.of("host", "h1", "name", "cpu", "type", "metric"));
    assertEquals(same, row);
    assertEquals(row, same);
    assertEquals(same.hashCode(), row.hashCode());
    assertEquals(row, AttributeMap.of(same), "and to attributes of the same entries");
    assertEquals(List.copyOf(same.entrySet()), List.copyOf(row.entrySet()));
    assertNotEquals(row, new SortedArrayMap<>(NAMES, new String[] {"h2", "cpu", "metric"}));
    assertNotEquals(row, new SortedArrayMap<>(new String[] {"host", "name"}, new String[] {"h1", "cpu"}));
  }

  @Test
  void distinctInASetWhateverMapsTheRowsMeet() {
    Set<Map<String, String>> series = new HashSet<>();
    series.add(new SortedArrayMap<>(NAMES, new String[] {"h1", "cpu", "metric"}));
    series.add(new SortedArrayMap<>(NAMES, new String[] {new String("h1"), "cpu", "metric"}));
    series.add(new TreeMap<>(Map.of("host", "h1", "name", "cpu", "type", "metric")));
    series.add(new SortedArrayMap<>(NAMES, new String[] {"h2", "cpu", "metric"}));
    assertEquals(2, series.size());
  }

  @Test
  void sameEntriesAsEqualMapsAre() {
    java.util.Random random = new java.util.Random(11);
    String[][] layouts = {NAMES, {"host", "name"}, {"dc", "name", "type"}, NAMES.clone()};
    for (int i = 0; i < 2_000; i++) {
      SortedArrayMap<String> a = randomRow(layouts, random);
      SortedArrayMap<String> b = randomRow(layouts, random);
      assertEquals(a.equals(b), a.sameEntries(b), a + " " + b);
      assertTrue(a.sameEntries(a));
      // the same entries in new Strings: equal all the same
      String[] names = new String[a.size()];
      String[] values = new String[a.size()];
      for (int k = 0; k < a.size(); k++) {
        names[k] = new String(a.name(k));
        values[k] = new String(a.value(k));
      }
      assertTrue(a.sameEntries(new SortedArrayMap<>(names, values)), a.toString());
    }
  }

  private static SortedArrayMap<String> randomRow(String[][] layouts, java.util.Random random) {
    String[] names = layouts[random.nextInt(layouts.length)];
    String[] values = new String[names.length];
    for (int k = 0; k < names.length; k++) {
      values[k] = "v" + random.nextInt(2);
    }
    return new SortedArrayMap<>(names, values);
  }

  @Test
  void namesAndValuesComeInPairs() {
    assertThrows(IllegalArgumentException.class, () -> new SortedArrayMap<>(NAMES, new String[] {"h1", "cpu"}));
  }

  @Test
  void looksFieldsUp() {
    SortedArrayMap<String> row = new SortedArrayMap<>(NAMES, new String[] {"h1", "cpu", "metric"});
    assertEquals("cpu", row.get("name"));
    assertNull(row.get("dc"));
    assertNull(row.get(42));
    assertTrue(row.containsKey("type"));
    assertFalse(row.containsKey("dc"));
    assertEquals(3, row.size());
  }
}
