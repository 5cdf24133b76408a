package io.chronix.analysis.promql.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LabelsTest {

  @Test
  void builderSortsByNameWhateverTheOrderAndSize() {
    Random random = new Random(7);
    for (int round = 0; round < 500; round++) {
      int size = random.nextInt(round % 5 == 0 ? 80 : 12);
      TreeMap<String, String> expected = new TreeMap<>();
      Labels.Builder builder = new Labels.Builder();
      for (int i = 0; i < size; i++) {
        String name = "l" + random.nextInt(size * 2 + 1);
        String value = random.nextInt(6) == 0 ? "" : "v" + random.nextInt(1000);
        builder.set(name, value);
        if (value.isEmpty()) {
          expected.remove(name);
        } else {
          expected.put(name, value);
        }
      }
      assertLabels(expected, builder.build());
    }
  }

  @Test
  void aLaterValueReplacesAndAnEmptyOneRemoves() {
    Labels labels = new Labels.Builder().set("job", "api").set("__name__", "up").set("instance", "a")
        .set("job", "db").remove("instance").set("zone", "").build();
    assertEquals("{__name__=\"up\", job=\"db\"}", labels.toString());
  }

  @Test
  void keepOnlyLeavesTheOthersSorted() {
    Labels labels = new Labels.Builder().set("c", "3").set("a", "1").set("d", "4").set("b", "2")
        .keepOnly(Set.of("a", "c", "d")).build();
    assertLabels(new TreeMap<>(Map.of("a", "1", "c", "3", "d", "4")), labels);
  }

  /** A layout's label sets are the builder's, compare and hash as they do, and keep the names given. */
  @Test
  void aLayoutMakesWhatTheBuilderMakes() {
    String[] names = {"__name__", "dc", "host", "rack"};
    Labels.Layout layout = new Labels.Layout(names);
    names[1] = "zz"; // the layout keeps its own copy
    Random random = new Random(11);
    List<Labels> fromLayout = new ArrayList<>();
    List<Labels> built = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String[] values = {"cpu" + random.nextInt(2), "d" + random.nextInt(3), "h" + random.nextInt(40), "r" + random.nextInt(2)};
      fromLayout.add(layout.labels(values.clone()));
      built.add(new Labels.Builder().set("rack", values[3]).set("host", values[2]).set("__name__", values[0])
          .set("dc", values[1]).build());
      assertEquals(built.get(i), fromLayout.get(i));
      assertEquals(built.get(i).hashCode(), fromLayout.get(i).hashCode());
    }
    for (int i = 0; i < 300; i++) {
      Labels other = fromLayout.get(random.nextInt(300));
      assertEquals(Integer.signum(built.get(i).compareTo(other)), Integer.signum(fromLayout.get(i).compareTo(other)));
    }
    assertEquals(3, new Labels.Layout("a", "b", "c").size());
  }

  @Test
  void aLayoutRefusesWhatNoLabelSetHas() {
    assertThrows(IllegalArgumentException.class, () -> new Labels.Layout("b", "a"), "unsorted");
    assertThrows(IllegalArgumentException.class, () -> new Labels.Layout("a", "a"), "repeated");
    assertThrows(IllegalArgumentException.class, () -> new Labels.Layout("", "a"), "empty name");
    Labels.Layout layout = new Labels.Layout("a", "b");
    assertThrows(IllegalArgumentException.class, () -> layout.labels(new String[] {"1"}), "a value short");
    assertThrows(IllegalArgumentException.class, () -> layout.labels(new String[] {"1", ""}), "an empty value");
    assertThrows(IllegalArgumentException.class, () -> layout.labels(new String[] {null, "2"}), "no value");
  }

  private static void assertLabels(TreeMap<String, String> expected, Labels labels) {
    List<String> got = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      got.add(labels.name(i) + "=" + labels.value(i));
    }
    List<String> want = new ArrayList<>();
    expected.forEach((name, value) -> want.add(name + "=" + value));
    assertEquals(want, got);
  }

  /**
   * The order keys sort as the label sets do: names and values that are prefixes of others, that
   * differ in a character below or above the zero byte's neighbours, in two-byte and three-byte
   * UTF-8, sets that are prefixes of others. Sets with a zero character or a surrogate have none.
   */
  @Test
  void orderKeysSortAsTheSetsDo() {
    String[] texts = {"a", "a!", "a ", "ab", "b", "\u00e9", "a\u00e9", "\u07ff", "\u0800", "\uffff", "\ue000",
        "a\"", "z", "dc0", "dc10", "dc1"};
    String[] names = {"__name__", "a", "ab", "b", "dc", "host"};
    Random random = new Random(1129);
    List<Labels> sets = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      Labels.Builder builder = new Labels.Builder();
      int size = random.nextInt(4);
      for (int j = 0; j < size; j++) {
        builder.set(names[random.nextInt(names.length)], texts[random.nextInt(texts.length)]);
      }
      sets.add(builder.build());
    }
    int pairs = 0;
    for (Labels a : sets) {
      byte[] keyA = a.orderKey();
      assertNotNull(keyA, a::toString);
      for (Labels b : sets) {
        int expected = Integer.signum(a.compareTo(b));
        assertEquals(expected, Integer.signum(Arrays.compareUnsigned(keyA, b.orderKey())), () -> a + " against " + b);
        pairs += expected != 0 ? 1 : 0;
      }
    }
    assertTrue(pairs > 300_000, "distinct pairs: " + pairs);
    assertNull(Labels.of("a", "x\u0000y").orderKey(), "a zero character");
    assertNull(Labels.of("a", "x\ud83d\ude00").orderKey(), "a surrogate pair");
  }
}
