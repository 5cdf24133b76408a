package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

// the vocabulary is the process's: the test that fills it runs last
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeriesWordsTest {

  @Test
  @Order(1)
  void keysDecodedApartShareTheirAttributeNamesAndType() {
    // as remote write decodes them: new strings for every request
    SeriesKey first = new SeriesKey("up", new String("metric"), Map.of(new String("job"), "node", new String("instance"), "a"));
    SeriesKey second = new SeriesKey("up", new String("metric"), Map.of(new String("job"), "node", new String("instance"), "b"));
    assertSame(first.type(), second.type());
    assertSame(first.attributes().firstKey(), second.attributes().firstKey());
    assertSame(first.attributes().lastKey(), second.attributes().lastKey());
    assertEquals(Map.of("job", "node", "instance", "a"), first.attributes());
  }

  @Test
  @Order(2)
  void pastTheBoundAWordIsKeptAsGiven() {
    for (int i = 0; i < SeriesWords.MAX_WORDS; i++) {
      SeriesWords.shared("filler-" + i);
    }
    String late = new String("a-word-after-the-vocabulary-filled");
    assertSame(late, SeriesWords.shared(late));
    assertSame(SeriesWords.shared(new String("filler-7")), SeriesWords.shared(new String("filler-7")),
        "words already known are still shared");
  }
}
