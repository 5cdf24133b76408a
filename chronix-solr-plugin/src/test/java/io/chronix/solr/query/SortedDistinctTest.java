package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SortedDistinctTest {

  @Test
  void asATreeSetWouldHoldThem() {
    Random random = new Random(11);
    for (int round = 0; round < 300; round++) {
      List<String> strings = new ArrayList<>();
      // runs in order, as segments' columns give them, then a few strays, as buffered series add them
      for (int run = random.nextInt(4); run >= 0; run--) {
        int from = random.nextInt(50);
        for (int i = from; i < from + random.nextInt(30); i++) {
          strings.add("h" + i);
        }
      }
      for (int i = random.nextInt(5); i > 0; i--) {
        strings.add(random.nextBoolean() ? "h" + random.nextInt(80) : "\uD83D\uDE00" + random.nextInt(3));
      }
      List<String> expected = new ArrayList<>(new TreeSet<>(strings));
      assertEquals(expected, FieldValues.sortedDistinct(strings));
    }
  }
}
