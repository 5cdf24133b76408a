package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesMerge;
import io.chronix.core.series.ValueType;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ArrayValuesTest {

  private static Points roundTrip(Points points) {
    for (Compression compression : List.of(Compressions.NONE, Compressions.GZIP)) {
      Points decoded = ChunkCodec.decode(new ChunkCodec(compression, 0).encode(points));
      assertEquals(ValueType.ARRAY, decoded.type());
      assertEquals(points, decoded);
    }
    return ChunkCodec.decode(ChunkCodec.lossless().encode(points));
  }

  private static Points arrays(double[]... values) {
    Points points = new Points(ValueType.ARRAY, values.length);
    for (int i = 0; i < values.length; i++) {
      points.addArray(1_000_000_000L * (i + 1), values[i]);
    }
    return points;
  }

  @Test
  void decimalVectorsComeBackExactly() {
    Points decoded = roundTrip(arrays(new double[] {0.5, 12.25, 100}, new double[] {0.5, 12.5, 99}, new double[] {0.75, 12.5, 98}));
    assertArrayEquals(new double[] {0.75, 12.5, 98}, decoded.array(2));
    assertEquals("[0.5, 12.25, 100.0]", decoded.text(0));
    assertTrue(Double.isNaN(decoded.value(0)), "an array is no single number");
  }

  @Test
  void anyBitPatternLengthsThatChangeAndEmptyArrays() {
    Random random = new Random(17);
    for (int round = 0; round < 200; round++) {
      int n = 1 + random.nextInt(40);
      double[][] values = new double[n][];
      for (int i = 0; i < n; i++) {
        values[i] = new double[random.nextInt(6)];
        for (int k = 0; k < values[i].length; k++) {
          switch (random.nextInt(5)) {
            case 0 -> values[i][k] = Double.longBitsToDouble(random.nextLong());
            case 1 -> values[i][k] = random.nextInt(1000) / 10.0;
            case 2 -> values[i][k] = Double.NaN;
            case 3 -> values[i][k] = -0.0;
            default -> values[i][k] = i > 0 && values[i - 1].length > k ? values[i - 1][k] : 1;
          }
        }
      }
      roundTrip(arrays(values));
    }
    roundTrip(arrays(new double[0], new double[0]));
  }

  @Test
  void repeatedVectorsCostAboutAByteAnElement() {
    int n = 1000;
    double[][] values = new double[n][];
    for (int i = 0; i < n; i++) {
      values[i] = new double[] {Math.sin(0.001) * 1e6, 3.25, 7, 0.1 * 3}; // xor form
    }
    int blob = new ChunkCodec(Compressions.NONE, 0).encode(arrays(values)).length;
    // a byte a timestamp (same interval), a byte an element (same as the one before), one run of
    // lengths; each block of 512 points starts with its first timestamp and elements whole
    assertTrue(blob < n * 5 + 2 * 60, "blob of " + blob + " bytes for " + n + " points of 4 repeated elements");
  }

  @Test
  void slicesMergesAndDeduplication() {
    Points points = arrays(new double[] {1, 2}, new double[] {3}, new double[] {4, 5, 6});
    Points later = new Points(ValueType.ARRAY, 2);
    later.addArray(2_000_000_000L, new double[] {30});
    later.addArray(4_000_000_000L, new double[] {40, 50});
    Points merged = SeriesMerge.merge(List.of(points, later));
    assertEquals(4, merged.size());
    assertArrayEquals(new double[] {30}, merged.array(1), "the later write wins a shared timestamp");
    assertArrayEquals(new double[] {4, 5, 6}, merged.clip(3_000_000_000L, 4_000_000_000L).array(0));
  }

  @Test
  void recordsOfWideArraysAreCutByElements() {
    int width = io.chronix.core.chunk.Chunker.MAX_ARRAY_ELEMENTS / 2 + 1;
    Points wide = arrays(new double[width], new double[width], new double[width], new double[3]);
    List<Points> slices = io.chronix.core.chunk.Chunker.slices(wide, 1000);
    assertEquals(List.of(1, 1, 2), slices.stream().map(Points::size).toList(), "no record beyond the element limit");
    assertEquals(List.of(2, 2), io.chronix.core.chunk.Chunker.slices(arrays(new double[1], new double[1],
        new double[1], new double[1]), 2).stream().map(Points::size).toList(), "and none beyond the point limit");
  }

  @Test
  void damagedLengthsAreRefusedBeforeAllocating() {
    ByteWriter body = new ByteWriter(16);
    body.writeByte(ValueEncoding.ARRAY);
    body.writeVarLong(1L << 40);
    body.writeVarLong(1);
    byte[] bytes = body.toByteArray();
    assertThrows(CorruptBlobException.class, () -> ValueEncoding.decode(new ByteReader(bytes, 0, bytes.length), new long[1], 1));
    ByteWriter negative = new ByteWriter(16);
    negative.writeByte(ValueEncoding.ARRAY);
    negative.writeVarLong(2);
    negative.writeVarLong(5);
    byte[] negativeBytes = negative.toByteArray();
    assertThrows(CorruptBlobException.class,
        () -> ValueEncoding.decode(new ByteReader(negativeBytes, 0, negativeBytes.length), new long[1], 1));
    byte[] blob = new ChunkCodec(Compressions.NONE, 0).encode(arrays(new double[] {1.5, 2}, new double[] {2.5}));
    for (int i = 2; i < blob.length; i++) {
      byte[] flipped = blob.clone();
      flipped[i] ^= 0x01;
      assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(flipped), "flip at byte " + i);
    }
  }

  /** Value mode 5 as the release before blocks wrote it (format version 2, uncompressed): a decimal and an xor chunk. */
  private static final String DECIMAL_FIXTURE = "02000380a8d6b907090200050201030100010002ac0290030032880ed1d8a4bd";
  private static final String XOR_FIXTURE = "02000280a8d6b907090205010102010100400921fb54442d1880067ff8f4ca5164";
  /** The same in format version 3, as this release writes them. */
  private static final String DECIMAL_FIXTURE_3 = "030003018004081180a8d6b907090200050201030100010002ac0290030032880eae5a2303";
  private static final String XOR_FIXTURE_3 = "030002018004071380a8d6b907090205010102010100400921fb54442d1880067ff893847eba";

  @Test
  void fixturesDecodeAndTheEncoderStillWritesThem() {
    Points decimal = arrays(new double[] {1.5, 2}, new double[] {1.5, 2.25, 9}, new double[0]);
    Points xor = arrays(new double[] {Math.PI}, new double[] {Math.PI, Double.NaN});
    HexFormat hex = HexFormat.of();
    ChunkCodec codec = new ChunkCodec(Compressions.NONE, 0);
    assertEquals(decimal, ChunkCodec.decode(hex.parseHex(DECIMAL_FIXTURE)));
    assertEquals(xor, ChunkCodec.decode(hex.parseHex(XOR_FIXTURE)));
    assertEquals(decimal, ChunkCodec.decode(hex.parseHex(DECIMAL_FIXTURE_3)));
    assertEquals(xor, ChunkCodec.decode(hex.parseHex(XOR_FIXTURE_3)));
    assertEquals(DECIMAL_FIXTURE_3, hex.formatHex(codec.encode(decimal)), "a changed layout needs a new version");
    assertEquals(XOR_FIXTURE_3, hex.formatHex(codec.encode(xor)), "a changed layout needs a new version");
  }
}
