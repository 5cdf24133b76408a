package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chronix.core.record.RangeStats;
import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A blob decoded for a time range: what a query reads from a record its range cuts. */
class RangeDecodeTest {

  private static final long SECOND = 1_000_000_000L;

  /** Every value type, ranges before, inside, across and after the chunk: the same points as decoding all and clipping. */
  @Test
  void aRangeDecodesToTheClippedPointsForEveryType() {
    Random random = new Random(7);
    for (Points points : typedChunks(random, 500)) {
      byte[][] encodings = {ChunkCodec.lossless().encode(points),
          new ChunkCodec(Compressions.byName("none"), 0).encode(points),
          new ChunkCodec(Compressions.byName("none"), 0, 7).encode(points),
          new ChunkCodec(Compressions.byName("gzip"), 0, 64).encode(points),
          new ChunkCodec(Compressions.byName("none"), 0, 1).encode(points)};
      long first = points.timestamp(0);
      long last = points.timestamp(points.size() - 1);
      long[][] ranges = {
          {first, last + 1}, {first - 10 * SECOND, first}, {last + 1, last + SECOND}, {first + 1, first + 2},
          {points.timestamp(100), points.timestamp(101)}, {points.timestamp(100), points.timestamp(400)},
          {first - SECOND, points.timestamp(250)}, {points.timestamp(250), last + SECOND},
          {points.timestamp(499), Long.MAX_VALUE}, {Long.MIN_VALUE, points.timestamp(1)}};
      for (long[] range : ranges) {
        Points expected = points.clip(range[0], range[1]);
        for (byte[] encoded : encodings) {
          Points decoded = ChunkCodec.decode(encoded, ChunkCodec.Limits.DEFAULT, range[0], range[1]);
          assertEquals(expected, decoded, points.type() + " in [" + range[0] + ", " + range[1] + ")");
        }
      }
    }
  }

  /**
   * A range's timestamps read without values: those of the clipped points, for every range around
   * a chunk's timestamps (repeated ones across block boundaries among them), blocks of one to the
   * whole chunk, and a chunk out of order (ascending all the same).
   */
  @Test
  void aRangesTimestampsAreThoseOfTheClippedPoints() {
    long[] timestamps = {10, 20, 21, 21, 21, 40, 41, 60, 80, 81, 82, 100};
    Points points = Points.wrap(timestamps, new double[timestamps.length], timestamps.length);
    for (int block = 1; block <= timestamps.length; block++) {
      byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
      for (long from = 0; from <= 105; from++) {
        for (long to = from; to <= 106; to++) {
          Points clipped = points.clip(from, to);
          long[] expected = java.util.Arrays.copyOf(clipped.timestampArray(), clipped.size());
          assertArrayEquals(expected, ChunkCodec.timestampsIn(blob, ChunkCodec.Limits.DEFAULT, from, to),
              "blocks of " + block + ", [" + from + ", " + to + ")");
        }
      }
    }
    Points unordered = Points.wrap(new long[] {50, 10, 30, 20}, new double[4], 4);
    byte[] blob = ChunkCodec.lossless().encode(unordered);
    assertArrayEquals(new long[] {20, 30}, ChunkCodec.timestampsIn(blob, ChunkCodec.Limits.DEFAULT, 15, 35));
  }

  /**
   * Whether a range holds a point, told from the blocks' first timestamps and at most one block's
   * timestamps: the same as clipping the points, for every range between and around a chunk's
   * timestamps (gaps between its points included), with blocks of one to the whole chunk, and
   * for a chunk out of order.
   */
  @Test
  void whetherARangeHoldsAPointIsToldAsClippingTellsIt() {
    long[] timestamps = {10, 20, 21, 22, 40, 41, 60, 80, 81, 82, 83, 100};
    double[] values = new double[timestamps.length];
    Points points = Points.wrap(timestamps, values, timestamps.length);
    for (int block = 1; block <= timestamps.length; block++) {
      byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
      for (long from = 0; from <= 105; from++) {
        for (long to = from; to <= 106; to++) {
          assertEquals(!points.clip(from, to).isEmpty(), ChunkCodec.holdsPointIn(blob, ChunkCodec.Limits.DEFAULT, from, to),
              "blocks of " + block + ", [" + from + ", " + to + ")");
        }
      }
    }
    Points unordered = Points.wrap(new long[] {50, 10, 30}, new double[3], 3);
    byte[] blob = ChunkCodec.lossless().encode(unordered);
    assertEquals(true, ChunkCodec.holdsPointIn(blob, ChunkCodec.Limits.DEFAULT, 25, 35));
    assertEquals(false, ChunkCodec.holdsPointIn(blob, ChunkCodec.Limits.DEFAULT, 31, 50));
  }

  /**
   * Equal timestamps on both sides of a block boundary: a range starting there gets all of them,
   * and its statistics ({@link RangeStats}, which read inner blocks by their values) count each once.
   */
  @Test
  void equalTimestampsAcrossABlockBoundaryAreAllFound() {
    long[] timestamps = {1, 2, 3, 3, 3, 3, 4, 5, 5, 6};
    double[] values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    Points points = Points.wrap(timestamps, values, timestamps.length);
    for (int block = 1; block <= timestamps.length; block++) {
      byte[] blob = new ChunkCodec(Compressions.byName("none"), 0, block).encode(points);
      for (long from = 0; from <= 7; from++) {
        for (long to = from; to <= 7; to++) {
          assertEquals(points.clip(from, to), ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to),
              "blocks of " + block + ", [" + from + ", " + to + ")");
          assertEquals(RangeStats.of(points.clip(from, to)), RangeStats.of(blob, ChunkCodec.Limits.DEFAULT, from, to),
              "statistics, blocks of " + block + ", [" + from + ", " + to + ")");
        }
      }
      assertEquals(points, ChunkCodec.decode(blob));
    }
  }

  /**
   * Ranges decoded one after the other in one thread share its scratch arrays: each answer is its
   * own, whatever was decoded before, and ranges beyond the scratch's size get arrays of their own.
   */
  @Test
  void rangesOneAfterTheOtherAndBeyondTheScratchAreTheirOwn() {
    int n = DecodeScratch.MAX_POINTS + 5_000;
    Points points = new Points(n);
    for (int i = 0; i < n; i++) {
      points.add(i * SECOND, i % 3 == 0 ? i : i + 0.5);
    }
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0).encode(points);
    Random random = new Random(3);
    List<Points> answers = new ArrayList<>();
    List<Points> expected = new ArrayList<>();
    for (int round = 0; round < 200; round++) {
      // some ranges start before the chunk: nothing of the decoded blocks is cut off at the front
      long from = (round % 3 == 0 ? -random.nextInt(100) : random.nextInt(n)) * SECOND;
      long to = from + (round % 50 == 1 ? n : random.nextInt(2_000)) * SECOND;
      answers.add(ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, from, to));
      expected.add(points.clip(from, to));
    }
    assertEquals(expected, answers);
  }

  /** A blob out of time order is not cut where a binary search would go wrong: it comes back whole. */
  @Test
  void aChunkOutOfOrderComesBackWhole() {
    long[] timestamps = {5 * SECOND, 1 * SECOND, 9 * SECOND, 3 * SECOND};
    Points points = Points.wrap(timestamps, new double[] {5, 1, 9, 3}, 4);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0).encode(points);
    assertEquals(points, ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, 2 * SECOND, 4 * SECOND));
  }

  /** The checksum covers the values a range leaves unread: damage there is still found. */
  @Test
  void damageAfterTheRangeIsStillFound() {
    Random random = new Random(3);
    Points points = doubles(random, 1000, false);
    byte[] blob = new ChunkCodec(Compressions.byName("none"), 0).encode(points);
    blob[blob.length - 6] ^= 0x10; // the last value's bytes, far after the range
    assertThrows(CorruptBlobException.class,
        () -> ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, points.timestamp(0), points.timestamp(10)));
  }

  /** Varints of every length, the last ones within ten bytes of the end (the checked path). */
  @Test
  void zigZagsOfEveryLengthUpToTheEnd() {
    long[] values = new long[130];
    for (int i = 0; i < 64; i++) {
      values[2 * i] = 1L << i;
      values[2 * i + 1] = -(1L << i) - 1;
    }
    values[128] = Long.MIN_VALUE;
    values[129] = Long.MAX_VALUE;
    ByteWriter out = new ByteWriter(16);
    for (long value : values) {
      out.writeZigZag(value);
    }
    long[] read = new long[values.length + 1];
    ByteReader in = new ByteReader(out.array(), 0, out.size());
    in.readZigZags(read, 1, values.length);
    assertEquals(0, in.remaining());
    assertEquals(java.util.Arrays.toString(values),
        java.util.Arrays.toString(java.util.Arrays.copyOfRange(read, 1, read.length)));
  }

  @Test
  void aVarintLongerThanTenBytesOrCutOffIsCorrupt() {
    byte[] eleven = new byte[24];
    java.util.Arrays.fill(eleven, 0, 11, (byte) 0x80);
    assertThrows(CorruptBlobException.class, () -> new ByteReader(eleven, 0, eleven.length).readZigZags(new long[1], 0, 1));
    byte[] cutOff = {0x01, (byte) 0x81, (byte) 0x82};
    assertThrows(CorruptBlobException.class, () -> new ByteReader(cutOff, 0, cutOff.length).readZigZags(new long[2], 0, 2));
    // the decimals' loop of its own, as a value's mantissa changes
    assertThrows(CorruptBlobException.class,
        () -> new ByteReader(eleven, 0, eleven.length).readDecimals(new double[1], 0, 1, 10));
    assertThrows(CorruptBlobException.class,
        () -> new ByteReader(cutOff, 0, cutOff.length).readDecimals(new double[2], 0, 2, 10));
  }

  private static Points[] typedChunks(Random random, int n) {
    Points longs = new Points(io.chronix.core.series.ValueType.LONG, n);
    Points booleans = new Points(io.chronix.core.series.ValueType.BOOLEAN, n);
    Points texts = new Points(io.chronix.core.series.ValueType.STRING, n);
    Points arrays = new Points(io.chronix.core.series.ValueType.ARRAY, n);
    long t = 1_439_400_000L * SECOND;
    for (int i = 0; i < n; i++) {
      t += SECOND + random.nextInt(1000) * 1_000_000L;
      longs.addLong(t, random.nextLong() >> random.nextInt(64));
      booleans.addBoolean(t, random.nextBoolean());
      texts.addText(t, "state-" + random.nextInt(4));
      arrays.addArray(t, new double[] {random.nextInt(10), random.nextGaussian()});
    }
    return new Points[] {doubles(random, n, true), doubles(random, n, false), longs, booleans, texts, arrays};
  }

  /** Decimals (mode 0) or arbitrary doubles (the XOR form); {@link KeptBlocksTest} decodes them too. */
  static Points doubles(Random random, int n, boolean decimal) {
    Points points = new Points(n);
    long t = 1_439_400_000L * SECOND;
    for (int i = 0; i < n; i++) {
      t += 30 * SECOND + random.nextInt(50) * 1_000_000L;
      points.add(t, decimal ? Math.round(random.nextGaussian() * 1e4) / 100.0 : random.nextGaussian());
    }
    return points;
  }
}
