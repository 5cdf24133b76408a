package io.chronix.analysis.promql.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
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

  private static void assertLabels(TreeMap<String, String> expected, Labels labels) {
    List<String> got = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      got.add(labels.name(i) + "=" + labels.value(i));
    }
    List<String> want = new ArrayList<>();
    expected.forEach((name, value) -> want.add(name + "=" + value));
    assertEquals(want, got);
  }
}
