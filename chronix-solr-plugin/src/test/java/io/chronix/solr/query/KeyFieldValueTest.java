package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SeriesKey;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KeyFieldValueTest {

  private static final List<String> NAMES = List.of("a", "dc", "host", "job", "zone", "_protocol");

  /** Random keys, most of a few name lists: the value is the key's own, wherever the field sits among its names. */
  @Test
  void valueAsTheKeyHasIt() {
    Random random = new Random(3);
    for (String field : List.of("host", "a", "zone", "missing", RecordFields.NAME, RecordFields.TYPE)) {
      KeyFieldValue value = new KeyFieldValue(field);
      for (int i = 0; i < 2_000; i++) {
        Map<String, String> attributes = new TreeMap<>();
        int lists = random.nextInt(4) == 0 ? NAMES.size() : 3;
        for (String name : NAMES.subList(0, lists)) {
          if (random.nextInt(3) > 0) {
            // values that are other fields' values too, so a value read at the wrong place can pass
            attributes.put(name, "v" + random.nextInt(4));
          }
        }
        SeriesKey key = SeriesKey.metric("m" + random.nextInt(3), attributes);
        String expected = RecordFields.valueOf(key, field);
        assertEquals(expected, value.of(key), () -> field + " of " + key);
        assertEquals(expected != null, value.present(key), () -> field + " in " + key);
      }
    }
  }
}
