package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.SeriesKey;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BufferMemoryTest {

  @Test
  void aSeriesIsChargedItsNameAndAttributeValuesButNotTheWordsAllKeysShare() {
    long base = BufferMemory.series(SeriesKey.metric("cpu", Map.of("h", "a")));
    assertEquals(base, BufferMemory.series(SeriesKey.metric("cpu", Map.of("a-long-attribute-name", "a"))),
        "attribute names are shared by all keys");
    assertEquals(base, BufferMemory.series(new SeriesKey("cpu", "a-type-of-its-own", Map.of("h", "a"))),
        "so are types");
    assertEquals(base + 2 * 10, BufferMemory.series(SeriesKey.metric("cpu", Map.of("h", "a" + "x".repeat(10)))),
        "values: two bytes a character");
    assertEquals(base + 2 * 10, BufferMemory.series(SeriesKey.metric("cpu" + "x".repeat(10), Map.of("h", "a"))),
        "the name likewise");
    assertEquals(base + 56 + 2 + 8, BufferMemory.series(SeriesKey.metric("cpu", Map.of("h", "a", "g", "b"))),
        "another attribute: its value's string and the two references to name and value");
  }
}
