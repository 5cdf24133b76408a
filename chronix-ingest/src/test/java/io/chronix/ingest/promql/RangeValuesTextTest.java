package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.model.GoFloats;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RangeValuesTextTest {

  /**
   * Each series' values as a sample's timestamp and value texts would make them one by one
   * ({@link ApiWriter#seconds}, {@link GoFloats#format}): timestamps on and off whole seconds, values
   * of every kind, repeated and not, one buffer for all series (so timestamp texts kept from one
   * series serve the next, and others share their slots). Through a byte generator, as the
   * API writes (texts that fit its buffer and longer ones), and a char one.
   */
  @Test
  void writesWhatTheTextsOfEachSampleSpell() throws Exception {
    Random random = new Random(21);
    double[] kinds = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, 1e300, -2.5e-9,
        0.1 + 0.2, 123456789012345678.0};
    RangeValuesText text = new RangeValuesText();
    for (int round = 0; round < 300; round++) {
      int size = random.nextInt(round % 10 == 0 ? 3_000 : 40);
      long[] timestamps = new long[size + 2];
      double[] values = new double[size + 2];
      long t = random.nextBoolean() ? 1_717_200_000_000L : random.nextLong() % 4_000_000_000_000_000L;
      for (int i = 0; i < size; i++) {
        t += random.nextBoolean() ? 60_000 : 1 + random.nextInt(2_000);
        timestamps[i] = t;
        values[i] = switch (random.nextInt(5)) {
          case 0 -> kinds[random.nextInt(kinds.length)];
          case 1 -> i > 0 ? values[i - 1] : 1;
          case 2 -> random.nextInt(2_000_000) - 1_000_000;
          case 3 -> (random.nextInt(2_000_000) - 1_000_000) / Math.pow(10, random.nextInt(8));
          default -> Double.longBitsToDouble(random.nextLong());
        };
      }
      StringBuilder expected = new StringBuilder("{\"values\":[");
      for (int i = 0; i < size; i++) {
        expected.append(i > 0 ? "," : "").append('[').append(ApiWriter.seconds(timestamps[i])).append(",\"")
            .append(GoFloats.format(values[i])).append("\"]");
      }
      expected.append("]}");
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (JsonGenerator json = new JsonFactory().createGenerator(bytes)) {
        write(json, text, timestamps, values, size);
      }
      assertEquals(expected.toString(), bytes.toString(StandardCharsets.UTF_8), "round " + round);
      StringWriter chars = new StringWriter();
      try (JsonGenerator json = new JsonFactory().createGenerator(chars)) {
        write(json, text, timestamps, values, size);
      }
      assertEquals(expected.toString(), chars.toString(), "round " + round + ", chars");
    }
  }

  private static void write(JsonGenerator json, RangeValuesText text, long[] timestamps, double[] values, int size)
      throws Exception {
    json.writeStartObject();
    json.writeFieldName("values");
    text.write(json, timestamps, values, size);
    json.writeEndObject();
  }
}
