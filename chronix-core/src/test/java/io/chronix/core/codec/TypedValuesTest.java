package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesMerge;
import io.chronix.core.series.ValueType;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TypedValuesTest {

  private static Points roundTrip(Points points) {
    Points decoded = ChunkCodec.decode(ChunkCodec.lossless().encode(points));
    assertEquals(points.type(), decoded.type());
    assertEquals(points, decoded);
    return decoded;
  }

  @Test
  void longsStayExactAcrossTheWholeRange() {
    long[] values = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 9_007_199_254_740_993L, Long.MAX_VALUE, 42};
    long[] timestamps = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      timestamps[i] = i * 1_000L;
    }
    Points decoded = roundTrip(Points.wrapLongs(timestamps, values, values.length));
    assertEquals(9_007_199_254_740_993L, decoded.longValue(5), "beyond 2^53");
    assertEquals((double) Long.MAX_VALUE, decoded.value(3), "numeric view for functions");
  }

  @Test
  void booleanRuns() {
    Random random = new Random(3);
    for (int round = 0; round < 50; round++) {
      Points points = new Points(ValueType.BOOLEAN, 16);
      int n = 1 + random.nextInt(500);
      boolean value = random.nextBoolean();
      for (int i = 0; i < n; i++) {
        if (random.nextInt(10) == 0) {
          value = !value;
        }
        points.addBoolean(i, value);
      }
      roundTrip(points);
    }
    Points one = new Points(ValueType.BOOLEAN, 1);
    one.addBoolean(7, true);
    assertTrue(roundTrip(one).booleanValue(0));
    assertEquals("true", one.text(0));
  }

  @Test
  void stringsWithADictionary() {
    Points points = new Points(ValueType.STRING, 4);
    String[] texts = {"RUNNING", "RUNNING", "", "stopped: exit 1", "Grüße, 世界", "RUNNING", "a\"b\\c\nd"};
    for (int i = 0; i < texts.length; i++) {
      points.addText(i * 10L, texts[i]);
    }
    Points decoded = roundTrip(points);
    assertEquals("Grüße, 世界", decoded.text(4));
    assertTrue(Double.isNaN(decoded.value(0)), "strings have no numeric view");
    int repeated = ChunkCodec.lossless().encode(repeat("RUNNING", 5000)).length;
    // ten blocks of 512 points, each with its dictionary of one
    assertTrue(repeated < 250, "a repeated state costs little: " + repeated + " bytes");
  }

  private static Points repeat(String text, int n) {
    Points points = new Points(ValueType.STRING, n);
    for (int i = 0; i < n; i++) {
      points.addText(i * 1_000_000_000L, text);
    }
    return points;
  }

  @Test
  void damagedTypedBlobsAreReported() {
    byte[] blob = new ChunkCodec(Compressions.NONE, 0).encode(repeat("x", 3));
    byte[] badIndex = blob.clone();
    badIndex[badIndex.length - 1] = 9;
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(badIndex));
    Points flags = new Points(ValueType.BOOLEAN, 3);
    flags.addBoolean(1, true);
    flags.addBoolean(2, true);
    byte[] runs = new ChunkCodec(Compressions.NONE, 0).encode(flags);
    runs[runs.length - 1] = 5; // a run longer than the chunk
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(runs));
  }

  @Test
  void typedPointsSortSliceAndClip() {
    Points points = new Points(ValueType.STRING, 2);
    points.addText(30, "c");
    points.addText(10, "a");
    points.addText(30, "C");
    points.addText(20, "b");
    points.sortAndDeduplicate();
    assertEquals(Points.wrapTexts(new long[] {10, 20, 30}, new String[] {"a", "b", "C"}, 3), points);
    assertEquals(Points.wrapTexts(new long[] {20}, new String[] {"b"}, 1), points.clip(15, 25));
    Points longs = Points.wrapLongs(new long[] {1, 2, 3}, new long[] {5, 6, 7}, 3);
    assertEquals(Points.wrapLongs(new long[] {2, 3}, new long[] {6, 7}, 2), longs.slice(1, 3));
  }

  @Test
  void mergingDifferentTypesFallsBackToNumbersOrText() {
    Points longs = Points.wrapLongs(new long[] {1, 3}, new long[] {10, 30}, 2);
    Points doubles = Points.wrap(new long[] {2}, new double[] {2.5}, 1);
    Points merged = SeriesMerge.merge(List.of(longs, doubles));
    assertEquals(Points.wrap(new long[] {1, 2, 3}, new double[] {10, 2.5, 30}, 3), merged);
    Points texts = Points.wrapTexts(new long[] {4}, new String[] {"up"}, 1);
    Points asText = SeriesMerge.merge(List.of(longs, texts));
    assertEquals(ValueType.STRING, asText.type());
    assertEquals("10", asText.text(0));
    assertEquals("up", asText.text(2));
  }
}
