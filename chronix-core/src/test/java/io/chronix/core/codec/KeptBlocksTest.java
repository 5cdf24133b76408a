package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Decoded blocks kept between two decodes of ranges over a blob ({@link KeptBlocks}). */
class KeptBlocksTest {

  private static final long SECOND = 1_000_000_000L;

  /** A keeper that keeps every block offered, and counts what it was asked and given. */
  private static final class MapKeeper implements KeptBlocks {
    final Map<Integer, DecodedBlock> kept = new HashMap<>();
    int offered;
    int served;

    @Override
    public DecodedBlock get(int block) {
      DecodedBlock found = kept.get(block);
      if (found != null) {
        served++;
      }
      return found;
    }

    @Override
    public void keep(int block, DecodedBlock points) {
      offered++;
      kept.put(block, points);
    }
  }

  /**
   * Every range over a chunk with equal timestamps across its block boundaries, for blocks of one
   * point to the whole chunk: decoded with an empty keeper, then again from what it kept, the
   * points are the clipped ones, and only blocks wholly inside the range were kept.
   */
  @Test
  void keptBlocksGiveTheClippedPointsAndLieInsideTheRange() {
    long[] timestamps = {10, 20, 21, 21, 21, 40, 41, 60, 80, 81, 82, 100};
    double[] values = new double[timestamps.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = i * 1.5 - 3;
    }
    Points points = Points.wrap(timestamps, values, timestamps.length);
    int keptSomewhere = 0;
    for (int block = 1; block <= timestamps.length; block++) {
      byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
      for (long from = 0; from <= 105; from++) {
        for (long to = from; to <= 106; to++) {
          Points expected = points.clip(from, to);
          MapKeeper keeper = new MapKeeper();
          String where = "blocks of " + block + ", [" + from + ", " + to + ")";
          assertEquals(expected, ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper), where);
          for (KeptBlocks.DecodedBlock kept : keeper.kept.values()) {
            assertEquals(block, kept.size(), where);
            for (long t : kept.timestamps()) {
              assertTrue(t >= from && t < to, "a kept block's timestamp " + t + " outside " + where);
            }
          }
          int offered = keeper.offered;
          assertEquals(expected, ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper), where + ", again");
          assertEquals(offered, keeper.served, "every kept block taken, " + where);
          assertEquals(offered, keeper.offered, "nothing offered again, " + where);
          keptSomewhere += offered;
        }
      }
    }
    assertTrue(keptSomewhere > 1000, "ranges over several blocks keep blocks: " + keptSomewhere);
  }

  /** Random ranges over a longer chunk of decimals and of arbitrary doubles, one keeper for all of them. */
  @Test
  void oneKeeperServesRangesOneAfterTheOther() {
    Random random = new Random(11);
    for (boolean decimal : new boolean[] {true, false}) {
      Points points = RangeDecodeTest.doubles(random, 5_000, decimal);
      for (int block : new int[] {7, 64, ChunkCodec.BLOCK_POINTS}) {
        byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
        MapKeeper keeper = new MapKeeper();
        for (int round = 0; round < 300; round++) {
          int a = random.nextInt(points.size());
          int b = Math.min(points.size() - 1, a + random.nextInt(round % 10 == 0 ? 5_000 : 800));
          long from = points.timestamp(a) + (round % 3 - 1);
          long to = points.timestamp(b) + (round % 2);
          assertEquals(points.clip(from, to), ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper),
              "blocks of " + block + ", round " + round);
        }
        assertTrue(keeper.served > 0, "blocks of " + block + ": kept blocks taken again");
      }
    }
  }

  /** A kept block stands in for its bytes: values planted in it are in the answer. */
  @Test
  void aKeptBlockIsCopiedRatherThanDecoded() {
    Points points = RangeDecodeTest.doubles(new Random(5), 40, true);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 10).encode(points);
    MapKeeper keeper = new MapKeeper();
    long from = points.timestamp(5);
    long to = points.timestamp(35);
    ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper);
    assertEquals(java.util.Set.of(1, 2), keeper.kept.keySet(), "blocks 1 and 2 lie inside; 0 and 3 are cut");
    KeptBlocks.DecodedBlock real = keeper.kept.get(1);
    double[] planted = real.values().clone();
    for (int i = 0; i < planted.length; i++) {
      planted[i] += 1000;
    }
    keeper.kept.put(1, new KeptBlocks.DecodedBlock(real.timestamps(), planted));
    Points answer = ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper);
    for (int i = 0; i < answer.size(); i++) {
      int point = i + 5;
      double expected = points.value(point) + (point >= 10 && point < 20 ? 1000 : 0);
      assertEquals(expected, answer.value(i), "point " + point);
    }
  }

  /** A block kept at another size (another blob's) is decoded instead. */
  @Test
  void aKeptBlockOfAnotherSizeIsNotTaken() {
    Points points = RangeDecodeTest.doubles(new Random(6), 40, true);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 10).encode(points);
    MapKeeper keeper = new MapKeeper();
    keeper.kept.put(1, new KeptBlocks.DecodedBlock(new long[3], new double[3]));
    long from = points.timestamp(5);
    long to = points.timestamp(35);
    assertEquals(points.clip(from, to), ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper));
    assertEquals(10, keeper.kept.get(1).size(), "replaced by the block as decoded");
  }

  /** Only blocks of doubles are kept, and only of a range that cuts the chunk. */
  @Test
  void otherTypesAndWholeChunksKeepNothing() {
    Random random = new Random(8);
    int n = 300;
    Points longs = new Points(ValueType.LONG, n);
    Points booleans = new Points(ValueType.BOOLEAN, n);
    Points texts = new Points(ValueType.STRING, n);
    long t = 1_439_400_000L * SECOND;
    for (int i = 0; i < n; i++) {
      t += SECOND;
      longs.addLong(t, random.nextLong() >> random.nextInt(64));
      booleans.addBoolean(t, random.nextBoolean());
      texts.addText(t, "state-" + random.nextInt(4));
    }
    for (Points points : new Points[] {longs, booleans, texts}) {
      byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 16).encode(points);
      MapKeeper keeper = new MapKeeper();
      long from = points.timestamp(20);
      long to = points.timestamp(250);
      assertEquals(points.clip(from, to), ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to, keeper));
      assertEquals(0, keeper.offered, points.type() + " blocks are not kept");
    }
    Points doubles = RangeDecodeTest.doubles(random, n, true);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, 16).encode(doubles);
    MapKeeper keeper = new MapKeeper();
    assertEquals(doubles, ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, Long.MIN_VALUE, Long.MAX_VALUE, keeper));
    assertFalse(keeper.offered > 0, "a whole chunk is not cut: nothing kept");
  }
}
