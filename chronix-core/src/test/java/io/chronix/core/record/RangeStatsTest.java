package io.chronix.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compressions;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Statistics over a range read from a blob's blocks equal those of the decoded, clipped points,
 * bit for bit (the sum is one running sum either way), for every value type and block size (equal
 * timestamps across a block boundary: RangeDecodeTest).
 */
class RangeStatsTest {

  private static final long SECOND = 1_000_000_000L;
  private static final ChunkCodec.Limits LIMITS = ChunkCodec.Limits.DEFAULT;

  @Test
  void everyRangeOfEveryTypeGivesTheStatisticsOfItsClippedPoints() {
    Random random = new Random(11);
    for (Points points : chunks(random, 300)) {
      for (int block : new int[] {1, 7, 64, 512}) {
        byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
        List<long[]> ranges = new ArrayList<>();
        long first = points.timestamp(0);
        long last = points.timestamp(points.size() - 1);
        ranges.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        ranges.add(new long[] {first - SECOND, first});
        ranges.add(new long[] {last + 1, last + SECOND});
        for (int r = 0; r < 200; r++) {
          int a = random.nextInt(points.size());
          int b = a + random.nextInt(points.size() - a);
          ranges.add(new long[] {points.timestamp(a) + random.nextInt(3) - 1, points.timestamp(b) + random.nextInt(3)});
        }
        for (long[] range : ranges) {
          RangeStats expected = RangeStats.of(points.clip(range[0], range[1]));
          assertEquals(expected, RangeStats.of(blob, LIMITS, range[0], range[1]),
              points.type() + ", blocks of " + block + ", [" + range[0] + ", " + range[1] + ")");
        }
      }
    }
  }

  @Test
  void aRangeWithoutPointsHasNoStatistics() {
    Points points = Points.wrap(new long[] {10, 20, 30}, new double[] {1, 2, 3}, 3);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 1).encode(points);
    assertNull(RangeStats.of(blob, LIMITS, 11, 20));
    assertNull(RangeStats.of(blob, LIMITS, 31, 40));
    assertNull(RangeStats.of(blob, LIMITS, 0, 10));
  }

  /** Out of time order, and gzip-compressed: the blob is decoded and clipped, as before blocks. */
  @Test
  void aBlobOutOfOrderOrCompressedIsDecodedWhole() {
    Points shuffled = Points.wrap(new long[] {5, 1, 9, 3}, new double[] {5, 1, 9, 3}, 4);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0).encode(shuffled);
    assertEquals(RangeStats.of(ChunkCodec.decode(blob).clip(2, 9)), RangeStats.of(blob, LIMITS, 2, 9));
    Points points = chunks(new Random(5), 200).get(0);
    byte[] gzip = new ChunkCodec(Compressions.byName("gzip"), 0, 16).encode(points);
    long from = points.timestamp(20);
    long to = points.timestamp(150);
    assertEquals(RangeStats.of(points.clip(from, to)), RangeStats.of(gzip, LIMITS, from, to));
  }

  /** Damage in a block the range reads by its values alone is still found by the checksum. */
  @Test
  void damageIsFound() {
    Points points = chunks(new Random(9), 300).get(0);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 16).encode(points);
    blob[blob.length - 40] ^= 0x10;
    assertThrows(CorruptBlobException.class,
        () -> RangeStats.of(blob, LIMITS, points.timestamp(10), points.timestamp(290)));
  }

  /** Decimals with NaN and signed zeros, arbitrary doubles, longs, booleans, strings, arrays. */
  private static List<Points> chunks(Random random, int n) {
    Points decimals = new Points(n);
    Points doubles = new Points(n);
    Points longs = new Points(ValueType.LONG, n);
    Points booleans = new Points(ValueType.BOOLEAN, n);
    Points texts = new Points(ValueType.STRING, n);
    Points arrays = new Points(ValueType.ARRAY, n);
    long t = 1_439_400_000L * SECOND;
    for (int i = 0; i < n; i++) {
      t += random.nextInt(4) == 0 ? 0 : SECOND + random.nextInt(1000) * 1_000_000L; // some timestamps repeat
      int pick = random.nextInt(20);
      decimals.add(t, pick == 0 ? Double.NaN : pick == 1 ? -0.0 : pick == 2 ? 0.0 : Math.round(random.nextGaussian() * 1e4) / 100.0);
      doubles.add(t, random.nextGaussian() * 1e6);
      longs.addLong(t, random.nextLong() >> random.nextInt(64));
      booleans.addBoolean(t, random.nextBoolean());
      texts.addText(t, "state-" + random.nextInt(4));
      arrays.addArray(t, new double[] {random.nextInt(10)});
    }
    return List.of(decimals, doubles, longs, booleans, texts, arrays);
  }
}
