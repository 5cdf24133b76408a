package io.chronix.solr.response;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import io.chronix.core.series.ValueType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** dataAsJson must give back every double bit for bit and every other type as it is. */
class SeriesJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void doublesReadBackToTheSameBits() throws Exception {
    Random random = new Random(11);
    Points points = new Points(ValueType.DOUBLE, 64);
    double[] special = {0.0, -0.0, 97.5, -97.5, 0.1, 0.1 + 0.2, 1.0001, -0.0001, 0.00001, 1e-300, Double.MIN_VALUE,
        Double.MAX_VALUE, 123456789.0, 9_007_199_254_740_991.0, 9_007_199_254_740_993.0, 1e16 + 0.5, 1e22, 1e23,
        -Double.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
    long t = 0;
    for (double value : special) {
      points.add(t++ * 1_000_000L, value);
    }
    for (int i = 0; i < 20_000; i++) {
      double value = switch (i % 5) {
        case 0 -> Double.longBitsToDouble(random.nextLong());
        case 1 -> Math.round(random.nextDouble() * 1e6) / 100.0;
        case 2 -> (random.nextLong() >> random.nextInt(64)) / Math.pow(10, random.nextInt(6));
        case 3 -> Math.nextUp(Math.round(random.nextDouble() * 1e8) / 1000.0);
        default -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
      };
      if (!Double.isNaN(value) && !Double.isInfinite(value)) {
        points.add(t++ * 1_000_000L, value);
      }
    }
    JsonNode data = JSON.readTree(SeriesJson.write(points, Precision.MILLISECONDS));
    assertEquals(points.size(), data.get("values").size());
    for (int i = 0; i < points.size(); i++) {
      assertEquals(Double.doubleToRawLongBits(points.value(i)),
          Double.doubleToRawLongBits(data.get("values").get(i).asDouble()), "value " + i + ": " + points.value(i));
      assertEquals(points.timestamp(i) / 1_000_000L, data.get("timestamps").get(i).asLong());
    }
  }

  @Test
  void timestampsAcrossTheirSharedDigitsAndRepeatedValuesAreExact() throws Exception {
    long[] nanos = {0, 999_999, 1_000_000, 1_000_001, 1_000_999, 1_001_000, 1_999_999, 2_000_000, 10_000_000,
        1_439_400_340_964L, 1_439_400_340_965L, 1_439_400_999_999L, 1_439_401_000_000L, 1_439_401_000_001L,
        999_999_999_999_999L, 1_000_000_000_000_000L, Long.MAX_VALUE - 1, Long.MAX_VALUE};
    double[] values = {1.5, 1.5, 1.5, -0.0, 0.0, 0.0, Double.NaN, Double.NaN, 2, 2, 0.1 + 0.2, 0.1 + 0.2,
        402753384.0, 402753384.0, -1, -1, 7, 7};
    Points points = new Points(ValueType.DOUBLE, nanos.length);
    StringBuilder expected = new StringBuilder("{\"timestamps\":[");
    for (int i = 0; i < nanos.length; i++) {
      points.add(nanos[i], values[i]);
      expected.append(i > 0 ? "," : "").append(nanos[i]);
    }
    expected.append("],\"values\":[1.5,1.5,1.5,-0.0,0,0,\"NaN\",\"NaN\",2,2,0.30000000000000004,"
        + "0.30000000000000004,402753384,402753384,-1,-1,7,7]}");
    assertEquals(expected.toString(), SeriesJson.write(points, Precision.NANOSECONDS));

    Points negative = new Points(ValueType.DOUBLE, 3);
    negative.add(-1_000_001L, 1);
    negative.add(-5L, 1);
    negative.add(Long.MIN_VALUE + 1, 1);
    assertEquals("{\"timestamps\":[-1000001,-5," + (Long.MIN_VALUE + 1) + "],\"values\":[1,1,1]}",
        SeriesJson.write(negative, Precision.NANOSECONDS));
  }

  /** Timestamps and long values at random, in and out of order, near and far apart: as Long.toString has them. */
  @Test
  void randomTimestampsAndLongsAreWrittenExactly() throws Exception {
    Random random = new Random(17);
    Points longs = new Points(ValueType.LONG, 5000);
    long t = 1_439_400_000_000L;
    for (int i = 0; i < 5000; i++) {
      t += switch (i % 4) {
        case 0 -> random.nextInt(1000);
        case 1 -> random.nextInt(3_000_000);
        case 2 -> -random.nextInt(2_000_000);
        default -> random.nextLong() >> random.nextInt(1, 64);
      };
      long value = switch (i % 3) {
        case 0 -> random.nextLong();
        case 1 -> random.nextInt();
        default -> random.nextLong() >> random.nextInt(64);
      };
      longs.addLong(t, value);
    }
    JsonNode data = JSON.readTree(SeriesJson.write(longs, Precision.NANOSECONDS));
    for (int i = 0; i < longs.size(); i++) {
      assertEquals(Long.toString(longs.timestamp(i)), data.get("timestamps").get(i).asText(), "timestamp " + i);
      assertEquals(Long.toString(longs.longValue(i)), data.get("values").get(i).asText(), "value " + i);
    }
  }

  @Test
  void gaugeValuesGetTheirShortDecimalForm() {
    Points points = new Points(ValueType.DOUBLE, 8);
    double[] values = {12.5, -0.25, 3.0, 1e7, 0.1, 1234.5678, -0.0, 0.1 + 0.2};
    for (int i = 0; i < values.length; i++) {
      points.add(i * 1_000_000L, values[i]);
    }
    assertEquals("{\"timestamps\":[0,1,2,3,4,5,6,7],\"values\":[12.5,-0.25,3,10000000,0.1,1234.5678,-0.0,"
        + "0.30000000000000004]}", SeriesJson.write(points, Precision.MILLISECONDS));
  }

  @Test
  void nonFiniteValuesLongsAndStringsAsDocumented() throws Exception {
    Points doubles = new Points(ValueType.DOUBLE, 4);
    doubles.add(1_000_000L, Double.NaN);
    doubles.add(2_000_000L, Double.POSITIVE_INFINITY);
    doubles.add(3_000_000L, Double.NEGATIVE_INFINITY);
    assertEquals("{\"timestamps\":[1,2,3],\"values\":[\"NaN\",\"Infinity\",\"-Infinity\"]}",
        SeriesJson.write(doubles, Precision.MILLISECONDS));

    Points longs = new Points(ValueType.LONG, 2);
    longs.addLong(5_000_000L, Long.MAX_VALUE);
    longs.addLong(6_000_000L, Long.MIN_VALUE);
    longs.addLong(7_000_000L, -12);
    assertEquals("{\"timestamps\":[5,6,7],\"values\":[9223372036854775807,-9223372036854775808,-12]}",
        SeriesJson.write(longs, Precision.MILLISECONDS));

    Points flags = new Points(ValueType.BOOLEAN, 2);
    flags.addBoolean(-1_000_000L, true);
    flags.addBoolean(8_000_000L, false);
    assertEquals("{\"timestamps\":[-1,8],\"values\":[true,false]}", SeriesJson.write(flags, Precision.MILLISECONDS));

    Points texts = new Points(ValueType.STRING, 2);
    texts.addText(7_000_000L, "été \"quoted\"");
    assertEquals("{\"timestamps\":[7000],\"values\":[\"été \\\"quoted\\\"\"]}", SeriesJson.write(texts, Precision.MICROSECONDS));
  }
}
