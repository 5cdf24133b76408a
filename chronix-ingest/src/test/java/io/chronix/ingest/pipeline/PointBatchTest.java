package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.SeriesKey;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PointBatchTest {

  @Test
  void everyTypeSurvivesGrowth() {
    SeriesKey doubles = SeriesKey.metric("d", Map.of());
    SeriesKey longs = new SeriesKey("l", "long", Map.of());
    SeriesKey texts = new SeriesKey("s", "string", Map.of());
    SeriesKey flags = new SeriesKey("b", "boolean", Map.of());
    PointBatch batch = new PointBatch(1);
    for (int i = 0; i < 1000; i++) {
      switch (i % 4) {
        case 0 -> batch.accept(doubles, i, i + 0.5);
        case 1 -> batch.acceptLong(longs, i, Long.MAX_VALUE - i);
        case 2 -> batch.acceptText(texts, i, "s" + i);
        default -> batch.acceptBoolean(flags, i, i % 8 == 3);
      }
    }
    assertEquals(1000, batch.size());
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, batch.timestamp(i));
      switch (i % 4) {
        case 0 -> assertEquals(i + 0.5, batch.value(i));
        case 1 -> assertEquals(Long.MAX_VALUE - i, batch.longValue(i));
        case 2 -> assertEquals("s" + i, batch.text(i));
        default -> assertEquals(i % 8 == 3 ? 1.0 : 0.0, batch.value(i));
      }
    }
  }
}
