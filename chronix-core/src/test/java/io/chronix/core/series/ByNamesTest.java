package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ByNamesTest {

  private static final List<String> WORDS = List.of("host", "dc", "job", "_protocol", "region", "le");

  /**
   * Random keys, most sharing a few name lists as a fleet's do, against a growing set of known
   * names: every answer is the test's own, whether it was remembered or asked again.
   */
  @Test
  void answersAsTheTestDoes() {
    Random random = new Random(5);
    Set<String> known = new HashSet<>();
    int[] asked = {0};
    Function<AttributeMap, Boolean> addsNames = attributes -> {
      asked[0]++;
      return !known.containsAll(attributes.keySet());
    };
    ByNames<AttributeMap, Boolean> memo = new ByNames<>(addsNames);
    for (int i = 0; i < 5_000; i++) {
      AttributeMap key = randomKey(random);
      if (random.nextInt(200) == 0) { // the answer changes only with the stamp
        known.add(WORDS.get(random.nextInt(WORDS.size())));
      }
      boolean expected = !known.containsAll(key.keySet());
      assertEquals(expected, memo.apply(key, known.size()), () -> key + " against " + known);
    }
    // keys of one name list ask the test once per stamp, not once per key
    int before = asked[0];
    for (int i = 0; i < 1_000; i++) {
      memo.apply(AttributeMap.of(Map.of("host", "h" + i, "dc", "dc" + i % 10)), known.size());
    }
    assertEquals(before + 1, asked[0]);
  }

  /** Another name list or another stamp asks again; the same names with other values do not. */
  @Test
  void anotherNameListOrStampAsksAgain() {
    int[] asked = {0};
    ByNames<AttributeMap, Boolean> memo = new ByNames<>(attributes -> {
      asked[0]++;
      return attributes.containsKey("host");
    });
    AttributeMap shared = AttributeMap.of(Map.of("host", "a"));
    AttributeMap other = AttributeMap.of(Map.of("region", "a"));
    assertEquals(true, memo.apply(shared, 0));
    assertEquals(false, memo.apply(other, 0));
    assertEquals(true, memo.apply(shared, 0));
    assertEquals(true, memo.apply(AttributeMap.of(Map.of("host", "b")), 0));
    assertEquals(3, asked[0]);
    assertEquals(true, memo.apply(shared, 1)); // another stamp
    assertEquals(4, asked[0]);
  }

  private static AttributeMap randomKey(Random random) {
    Map<String, String> attributes = new TreeMap<>();
    List<String> words = new ArrayList<>(WORDS);
    int lists = random.nextInt(10) < 8 ? 2 : WORDS.size(); // mostly two name lists, sometimes any
    int count = 1 + random.nextInt(Math.min(lists, WORDS.size()));
    for (int i = 0; i < count; i++) {
      attributes.put(words.remove(random.nextInt(Math.min(lists, words.size()))), "v" + random.nextInt(100));
    }
    return AttributeMap.of(attributes);
  }
}
