package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AttributeMapTest {

  /** Random maps in random insertion order, compared with a tree map of the same entries in every way a map is read. */
  @Test
  void readsAsATreeMapOfTheSameEntries() {
    Random random = new Random(7);
    for (int round = 0; round < 500; round++) {
      Map<String, String> given = new LinkedHashMap<>();
      int size = random.nextInt(7);
      for (int i = 0; i < size; i++) {
        given.put(word(random), word(random));
      }
      TreeMap<String, String> expected = new TreeMap<>(given);
      AttributeMap map = AttributeMap.of(given);

      assertEquals(expected, map);
      assertEquals(map, expected, "equal both ways");
      assertEquals(expected.hashCode(), map.hashCode());
      assertEquals(expected.toString(), map.toString());
      assertEquals(new ArrayList<>(expected.entrySet()), new ArrayList<>(map.entrySet()), "in name order");
      assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(map.keySet()));
      assertEquals(new ArrayList<>(expected.values()), new ArrayList<>(map.values()));
      List<String> visited = new ArrayList<>();
      map.forEach((name, value) -> visited.add(name + "=" + value));
      List<String> walked = new ArrayList<>();
      for (int i = 0; i < map.size(); i++) {
        walked.add(map.name(i) + "=" + map.value(i));
      }
      assertEquals(visited, walked);
      assertEquals(expected.size(), walked.size());
      for (int probe = 0; probe < 10; probe++) {
        String name = word(random);
        assertEquals(expected.get(name), map.get(name), name);
        assertEquals(expected.containsKey(name), map.containsKey(name), name);
        assertEquals(expected.headMap(name), map.headMap(name), "head " + name);
        assertEquals(expected.tailMap(name), map.tailMap(name), "tail " + name);
        String other = word(random);
        String from = name.compareTo(other) <= 0 ? name : other;
        String to = name.compareTo(other) <= 0 ? other : name;
        assertEquals(expected.subMap(from, to), map.subMap(from, to), from + ".." + to);
        TreeMap<String, String> put = new TreeMap<>(expected);
        put.put(name, other);
        AttributeMap with = map.with(name, other);
        assertEquals(put, with, "with " + name + "=" + other);
        assertEquals(new ArrayList<>(put.keySet()), new ArrayList<>(with.keySet()), "in name order");
        assertEquals(expected, map, "unchanged by with");
      }
      if (!expected.isEmpty()) {
        assertEquals(expected.firstKey(), map.firstKey());
        assertEquals(expected.lastKey(), map.lastKey());
      }
      assertNull(map.get(42), "a name is a string");
      assertEquals(map, AttributeMap.of(new HashMap<>(given)), "the same whatever order the entries came in");
    }
  }

  private static String word(Random random) {
    return Character.toString('a' + random.nextInt(6)) + (random.nextBoolean() ? "" : random.nextInt(3));
  }

  /** Same names whatever the values (names made afresh, not shared, too); another name or one more differs. */
  @Test
  void sameNamesWhateverTheValues() {
    AttributeMap a = AttributeMap.of(Map.of("host", "a", "dc", "b"));
    AttributeMap b = AttributeMap.of(Map.of("dc", "x", new String("host".toCharArray()), "y"));
    assertTrue(a.sameNames(b));
    assertEquals(a.namesHashCode(), b.namesHashCode());
    assertFalse(a.sameNames(AttributeMap.of(Map.of("host", "a", "rack", "b"))));
    assertFalse(a.sameNames(AttributeMap.of(Map.of("host", "a", "dc", "b", "job", "c"))));
    assertFalse(a.sameNames(AttributeMap.of(Map.of("host", "a"))));
    assertTrue(AttributeMap.EMPTY.sameNames(AttributeMap.of(Map.of())));
  }

  @Test
  void cannotBeChanged() {
    AttributeMap map = AttributeMap.of(Map.of("host", "a", "dc", "b"));
    assertThrows(UnsupportedOperationException.class, () -> map.put("x", "y"));
    assertThrows(UnsupportedOperationException.class, () -> map.remove("host"));
    assertThrows(UnsupportedOperationException.class, map::clear);
    assertThrows(UnsupportedOperationException.class, () -> map.entrySet().iterator().remove());
    assertThrows(UnsupportedOperationException.class, () -> map.keySet().remove("host"));
    assertThrows(UnsupportedOperationException.class, () -> map.values().clear());
    assertEquals(Map.of("host", "a", "dc", "b"), map);
  }

  @Test
  void namesAndValuesMustBeThere() {
    Map<String, String> noValue = new HashMap<>();
    noValue.put("host", null);
    NullPointerException missing = assertThrows(NullPointerException.class, () -> AttributeMap.of(noValue));
    assertTrue(missing.getMessage().contains("host"), missing.getMessage());
    Map<String, String> noName = new HashMap<>();
    noName.put(null, "a");
    assertThrows(NullPointerException.class, () -> AttributeMap.of(noName));
  }

  @Test
  void sharesNamesKeepsItselfAndHasOneEmptyInstance() {
    AttributeMap first = AttributeMap.of(Map.of(new String("region"), "eu"));
    AttributeMap second = AttributeMap.of(Map.of(new String("region"), "us"));
    assertSame(first.name(0), second.name(0), "names are the process' shared words");
    assertSame(first, AttributeMap.of(first), "immutable: no copy");
    assertSame(AttributeMap.EMPTY, AttributeMap.of(Map.of()));
    assertTrue(AttributeMap.EMPTY.isEmpty());
    assertThrows(NoSuchElementException.class, AttributeMap.EMPTY::firstKey);
    assertThrows(NoSuchElementException.class, AttributeMap.EMPTY::lastKey);
    assertThrows(NoSuchElementException.class, () -> AttributeMap.EMPTY.entrySet().iterator().next());
    SortedMap<String, String> tree = new TreeMap<>(Map.of("b", "1"));
    assertThrows(IllegalArgumentException.class, () -> AttributeMap.of(tree).subMap("c", "a"),
        "as a tree map: a range whose start is after its end");
    assertFalse(AttributeMap.of(tree).equals(Map.of("b", "2")));
  }
}
