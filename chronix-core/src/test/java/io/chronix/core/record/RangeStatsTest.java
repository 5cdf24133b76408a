package io.chronix.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compressions;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.codec.KeptBlocks;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Statistics over a range read from a blob's blocks equal those of the decoded, clipped points,
 * bit for bit but for the sum, where inner blocks add their own sums (equal to the last bits), for
 * every value type and block size (equal timestamps across a block boundary: RangeDecodeTest).
 * Figures of blocks kept for the next query give the same answers, bit for bit.
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
          assertSameFigures(expected, RangeStats.of(blob, LIMITS, range[0], range[1]),
              points.type() + ", blocks of " + block + ", [" + range[0] + ", " + range[1] + ")");
        }
      }
    }
  }

  /** Whatever is kept of a blob's blocks, in any order of ranges, the answers are those without. */
  @Test
  void keptBlockFiguresGiveTheAnswersOfDecoding() {
    Random random = new Random(13);
    for (Points points : chunks(random, 400)) {
      for (int block : new int[] {1, 7, 64}) {
        byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
        BlockStats[] kept = new BlockStats[1];
        for (int r = 0; r < 300; r++) {
          int a = random.nextInt(points.size());
          int b = a + random.nextInt(points.size() - a);
          long from = points.timestamp(a) + random.nextInt(3) - 1;
          long to = points.timestamp(b) + random.nextInt(3);
          RangeStats keeping = RangeStats.of(blob, LIMITS, from, to, blocks -> {
            if (kept[0] == null) {
              kept[0] = new BlockStats(blocks);
            }
            return kept[0];
          });
          assertEquals(RangeStats.of(blob, LIMITS, from, to), keeping,
              points.type() + ", blocks of " + block + ", [" + from + ", " + to + "), round " + r);
        }
        if (points.type() != ValueType.STRING && points.type() != ValueType.ARRAY) {
          assertTrue(kept[0].known() > 0, points.type() + ": blocks of " + block + " kept");
        }
      }
    }
  }

  /** Values 0 to 39 at seconds 1 to 40, in blocks of ten. */
  private record Forty(long[] timestamps, byte[] blob) {
    static Forty make() {
      long[] timestamps = new long[40];
      double[] values = new double[40];
      for (int i = 0; i < 40; i++) {
        timestamps[i] = (i + 1) * SECOND;
        values[i] = i;
      }
      return new Forty(timestamps,
          new ChunkCodec(Compressions.byName("none"), 0, 10).encode(Points.wrap(timestamps, values, 40)));
    }
  }

  private static final Forty FORTY = Forty.make();

  /** An inner block whose figures are kept is not decoded again: other figures kept there show. */
  @Test
  void innerBlocksAreAnsweredFromTheKeptFigures() {
    byte[] blob = FORTY.blob();
    BlockStats kept = new BlockStats(4);
    long from = 5 * SECOND;
    long to = 36 * SECOND; // blocks 1 and 2 whole, 0 and 3 cut
    RangeStats first = RangeStats.of(blob, LIMITS, from, to, blocks -> kept);
    assertEquals(new RecordStats(31, 4, 34, sum(4, 34), 4, 34), first.stats());
    assertEquals(2, kept.known());
    assertTrue(kept.knows(1) && kept.knows(2));

    BlockStats planted = new BlockStats(4);
    RecordStats.Running other = new RecordStats.Running();
    other.add(new double[] {-100, 5, 1000}, 0, 3);
    planted.keep(2, other);
    RangeStats answered = RangeStats.of(blob, LIMITS, from, to, blocks -> planted);
    assertEquals(-100.0, answered.stats().min());
    assertEquals(1000.0, answered.stats().max());
    assertTrue(planted.knows(1), "block 1 decoded and kept, block 2 taken as planted");
  }

  /** Whatever is kept of a blob's decoded blocks, in any order of ranges, the answers are those without. */
  @Test
  void keptEndBlocksGiveTheAnswersOfDecoding() {
    Random random = new Random(17);
    for (Points points : chunks(random, 400)) {
      for (int block : new int[] {1, 7, 64, 512}) {
        byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
        MapKeptBlocks kept = new MapKeptBlocks();
        for (int r = 0; r < 300; r++) {
          int a = random.nextInt(points.size());
          int b = a + random.nextInt(points.size() - a);
          long from = points.timestamp(a) + random.nextInt(3) - 1;
          long to = points.timestamp(b) + random.nextInt(3);
          assertEquals(RangeStats.of(blob, LIMITS, from, to), RangeStats.of(blob, LIMITS, from, to, null, kept),
              points.type() + ", blocks of " + block + ", [" + from + ", " + to + "), round " + r);
        }
        boolean doubles = points.type() == ValueType.DOUBLE;
        assertEquals(doubles, !kept.blocks.isEmpty(), points.type() + ": blocks of " + block + " kept");
      }
    }
  }

  /** A block the range cuts is decoded whole once and kept; then it is read from what is kept. */
  @Test
  void cutBlocksAreAnsweredFromTheKeptOnes() {
    byte[] blob = FORTY.blob();
    long from = 5 * SECOND;
    long to = 36 * SECOND; // blocks 1 and 2 whole, 0 and 3 cut
    MapKeptBlocks kept = new MapKeptBlocks();
    RangeStats first = RangeStats.of(blob, LIMITS, from, to, null, kept);
    assertEquals(new RangeStats(new RecordStats(31, 4, 34, sum(4, 34), 4, 34), 5 * SECOND, 35 * SECOND), first);
    assertEquals(java.util.Set.of(0, 3), kept.blocks.keySet(), "the two cut blocks, decoded whole");
    assertEquals(10, kept.blocks.get(3).size());

    long[] plantedTimes = java.util.Arrays.copyOfRange(FORTY.timestamps(), 30, 40);
    double[] plantedValues = new double[10];
    java.util.Arrays.fill(plantedValues, 1000);
    kept.blocks.put(3, new KeptBlocks.DecodedBlock(plantedTimes, plantedValues));
    RangeStats answered = RangeStats.of(blob, LIMITS, from, to, null, kept);
    assertEquals(1000.0, answered.stats().max(), "block 3 taken as planted");
    assertEquals(4.0, answered.stats().min());
  }

  /** Decoded blocks kept in a map, by number. */
  private static final class MapKeptBlocks implements KeptBlocks {
    final java.util.Map<Integer, DecodedBlock> blocks = new java.util.HashMap<>();

    @Override
    public DecodedBlock get(int block) {
      return blocks.get(block);
    }

    @Override
    public void keep(int block, DecodedBlock points) {
      blocks.put(block, points);
    }
  }

  /** -0.0 is the smaller zero and 0.0 the larger, whichever inner block holds them. */
  @Test
  void signedZerosOfInnerBlocksCountAsTheValuesDo() {
    double[][] orders = {{0.0, -0.0, 0.0, -0.0, 0.0}, {-0.0, 0.0, -0.0, 0.0, -0.0}, {0.0, 0.0, -0.0, -0.0, 0.0}};
    for (double[] values : orders) {
      long[] timestamps = {1, 2, 3, 4, 5};
      Points points = Points.wrap(timestamps, values, 5);
      byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 1).encode(points);
      for (BlockStats kept : new BlockStats[] {null, new BlockStats(5)}) {
        RangeStats stats = RangeStats.of(blob, LIMITS, 1, 6, kept == null ? null : blocks -> kept);
        assertEquals(RangeStats.of(points), stats, java.util.Arrays.toString(values) + (kept == null ? "" : ", kept"));
      }
    }
  }

  @Test
  void figuresOfAnotherBlobAreRefused() {
    Points points = chunks(new Random(3), 100).get(0);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 10).encode(points);
    assertThrows(IllegalArgumentException.class, () -> RangeStats.of(blob, LIMITS, Long.MIN_VALUE, Long.MAX_VALUE,
        blocks -> new BlockStats(blocks + 1)));
  }

  /** Figures bit for bit, the sum to the last bits (inner blocks add their own sums). */
  private static void assertSameFigures(RangeStats expected, RangeStats actual, String what) {
    if (expected == null || actual == null) {
      assertEquals(expected, actual, what);
      return;
    }
    RecordStats e = expected.stats();
    RecordStats a = actual.stats();
    assertEquals(new RangeStats(new RecordStats(e.count(), e.min(), e.max(), 0, e.first(), e.last()),
            expected.firstNanos(), expected.lastNanos()),
        new RangeStats(new RecordStats(a.count(), a.min(), a.max(), 0, a.first(), a.last()),
            actual.firstNanos(), actual.lastNanos()), what);
    if (Double.isNaN(e.sum()) || Double.isNaN(a.sum())) {
      assertEquals(e.sum(), a.sum(), what + ": sum");
    } else {
      assertEquals(e.sum(), a.sum(), Math.abs(e.sum()) * 1e-12, what + ": sum");
    }
  }

  private static double sum(int from, int to) {
    double sum = 0;
    for (int i = from; i <= to; i++) {
      sum += i;
    }
    return sum;
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
    assertSameFigures(RangeStats.of(points.clip(from, to)), RangeStats.of(gzip, LIMITS, from, to), "gzip");
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
