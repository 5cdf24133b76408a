package io.chronix.ingest.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.chronix.core.series.SeriesKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The log's key bytes are a format: the quick path for ASCII keys must write what the general one writes. */
class KeyEncodingsTest {

  @Test
  void asciiKeysAreEncodedAsAnyKeyIs() {
    Random random = new Random(11);
    for (int round = 0; round < 2_000; round++) {
      Map<String, String> attributes = new HashMap<>();
      int count = round % 50 == 0 ? 130 + random.nextInt(5) : random.nextInt(6); // some past a one-byte count
      for (int i = 0; i < count; i++) {
        attributes.put(text(random) + i, text(random));
      }
      SeriesKey key = new SeriesKey(text(random) + "n", random.nextBoolean() ? SeriesKey.METRIC : "long", attributes);
      assertArrayEquals(KeyEncodings.encodeAny(key), KeyEncodings.encode(key), key.toString());
    }
  }

  /** Mostly short ASCII; sometimes a character past ASCII, or 127 to 129 characters around a one-byte length. */
  private static String text(Random random) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(10) == 0 ? 127 + random.nextInt(3) : 1 + random.nextInt(8);
    for (int i = 0; i < length; i++) {
      text.append((char) ('a' + random.nextInt(26)));
    }
    switch (random.nextInt(12)) {
      case 0:
        text.setCharAt(random.nextInt(text.length()), 'é');
        break;
      case 1:
        text.setCharAt(random.nextInt(text.length()), (char) 0x7F);
        break;
      case 2:
        text.setCharAt(random.nextInt(text.length()), (char) 0x80);
        break;
      default:
        break;
    }
    return text.toString();
  }
}
