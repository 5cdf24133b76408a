package io.chronix.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RecordSchemaTest {

  /** What a listing matches without points must be what the record of those points holds. */
  @Test
  void spanFieldsAreTheBufferedRecordsOwn() {
    Random random = new Random(8);
    for (int round = 0; round < 200; round++) {
      Map<String, String> attributes = new TreeMap<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        attributes.put("a" + random.nextInt(6), "v" + random.nextInt(3));
      }
      SeriesKey key = SeriesKey.metric("m" + random.nextInt(3), attributes);
      Points points = new Points(ValueType.DOUBLE, 4);
      for (int i = 0; i <= random.nextInt(5); i++) {
        points.add(random.nextLong() >> 8, random.nextGaussian());
      }
      points.sortAndDeduplicate();
      Map<String, Object> record = RecordSchema.bufferedFields(key, points);
      Map<String, Object> span = RecordSchema.spanFields(key, points.timestamp(0), points.timestamp(points.size() - 1));
      for (Map.Entry<String, Object> field : record.entrySet()) {
        assertEquals(RecordSchema.isSpanField(field.getKey()), span.containsKey(field.getKey()), field.getKey());
        if (span.containsKey(field.getKey())) {
          assertEquals(field.getValue(), span.get(field.getKey()), field.getKey());
        }
      }
      assertTrue(record.keySet().containsAll(span.keySet()), span.keySet().toString());
      java.util.Set<String> own = new java.util.HashSet<>(record.keySet());
      own.removeAll(attributes.keySet());
      assertEquals(RecordSchema.BUFFERED_FIELDS, own, "the fields besides the attributes");
    }
  }
}
