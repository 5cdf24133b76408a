package io.chronix.ingest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeriesOwnersTest {

  private static final List<String> THREE = List.of("http://a:8983", "http://b:8983", "http://c:8983");

  @Test
  void everyNodeChoosesTheSameOwnerAndTheSeriesSpreadEvenly() {
    SeriesOwners owners = new SeriesOwners(THREE);
    SeriesOwners reordered = new SeriesOwners(List.of(THREE.get(2), THREE.get(0), THREE.get(1)));
    Map<String, Integer> counts = new HashMap<>();
    for (SeriesKey key : keys(30_000)) {
      String owner = owners.ownerOf(key);
      assertEquals(owner, reordered.ownerOf(key), key.toString());
      counts.merge(owner, 1, Integer::sum);
    }
    for (String node : THREE) {
      int share = counts.getOrDefault(node, 0);
      assertTrue(share > 9_000 && share < 11_000, node + " owns " + share + " of 30,000");
    }
  }

  @Test
  void aLeavingNodesSeriesMoveAndNoOthers() {
    SeriesOwners before = new SeriesOwners(THREE);
    SeriesOwners after = new SeriesOwners(THREE.subList(0, 2));
    int moved = 0;
    for (SeriesKey key : keys(10_000)) {
      String was = before.ownerOf(key);
      String is = after.ownerOf(key);
      if (!was.equals(THREE.get(2))) {
        assertEquals(was, is, "a series of a node that stays keeps its owner");
      } else {
        assertNotEquals(was, is);
        moved++;
      }
    }
    assertTrue(moved > 2_800 && moved < 3_900, moved + " moved");
  }

  @Test
  void aJoiningNodeTakesItsShareFromEveryOther() {
    SeriesOwners before = new SeriesOwners(THREE);
    List<String> four = new ArrayList<>(THREE);
    four.add("http://d:8983");
    SeriesOwners after = new SeriesOwners(four);
    int moved = 0;
    for (SeriesKey key : keys(10_000)) {
      String is = after.ownerOf(key);
      if (!is.equals(before.ownerOf(key))) {
        assertEquals("http://d:8983", is, "series move only to the new node");
        moved++;
      }
    }
    assertTrue(moved > 2_100 && moved < 2_900, moved + " moved");
  }

  @Test
  void noNodeNoOwner() {
    assertThrows(IllegalArgumentException.class, () -> new SeriesOwners(List.of()));
  }

  private static List<SeriesKey> keys(int n) {
    List<SeriesKey> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(SeriesKey.metric("cpu_" + (i % 17), Map.of("host", "host-" + i / 17, "dc", "dc" + i % 3)));
    }
    return keys;
  }
}
