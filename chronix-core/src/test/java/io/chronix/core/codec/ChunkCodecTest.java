package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ChunkCodecTest {

  private static final long NANOS_1970 = 0;
  private static final long NANOS_2200 = 7_258_118_400_000_000_000L; // 2200-01-01T00:00Z

  static Stream<Path> p4Files() throws IOException {
    Path dir = Path.of(System.getProperty("chronix.p4.dir", "../shared/data/p4"));
    assertTrue(Files.isDirectory(dir), "P4 sample data expected at " + dir.toAbsolutePath());
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> csv = files.filter(f -> f.toString().endsWith(".csv.gz")).sorted().collect(Collectors.toList());
      assertTrue(csv.size() > 100, "expected the P4 files in " + dir);
      return csv.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("p4Files")
  void everyP4SeriesRoundTripsBitExact(Path file) throws IOException {
    P4File series = new P4CsvReader().read(file);
    assertRoundTrip(series.points(), ChunkCodec.lossless());
    assertRoundTrip(series.points(), new ChunkCodec(Compressions.NONE, 0));
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"xz", "xz:9", "zstd", "zstd:19", "gzip:1"})
  void everyCompressionRoundTripsAndDetectsDamage(String name) throws IOException {
    ChunkCodec codec = new ChunkCodec(Compressions.byName(name), 0);
    for (Path file : p4Files().limit(5).collect(Collectors.toList())) {
      assertRoundTrip(new P4CsvReader().read(file).points(), codec);
    }
    byte[] blob = codec.encode(points(new long[] {1, 2, 3}, new double[] {1.5, 2.5, 3.5}));
    byte[] flipped = blob.clone();
    flipped[blob.length / 2] ^= 0x20;
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(flipped), name);
  }

  /** A blob may come from outside (a shard, a client): decoding it allocates nothing beyond the limits. */
  @Test
  void decompressionBombsAndImplausibleCountsAreRefusedBeforeAllocating() throws IOException {
    java.io.ByteArrayOutputStream zeros = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(zeros)) {
      gzip.write(new byte[80 << 20]);
    }
    byte[] bomb = new byte[zeros.size() + 6];
    bomb[0] = 2;
    bomb[1] = 1;
    System.arraycopy(zeros.toByteArray(), 0, bomb, 2, zeros.size());
    CorruptBlobException exploded = assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(bomb));
    assertTrue(exploded.getMessage().contains("decompresses to more than " + (64L << 20) + " bytes"), exploded.getMessage());

    // a body that claims two billion points in a few bytes
    byte[] body = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x07, 0, 0, 0, 0};
    byte[] blob = new byte[2 + body.length + 4];
    blob[0] = 2;
    System.arraycopy(body, 0, blob, 2, body.length);
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(body);
    for (int i = 0; i < 4; i++) {
      blob[blob.length - 4 + i] = (byte) (crc.getValue() >>> (24 - 8 * i));
    }
    CorruptBlobException implausible = assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(blob));
    assertTrue(implausible.getMessage().contains("implausible point count"), implausible.getMessage());

    Points many = new Points();
    for (int i = 0; i < 1000; i++) {
      many.add(i * 1000L, i);
    }
    byte[] encoded = new ChunkCodec(Compressions.NONE, 0).encode(many);
    assertEquals(1000, ChunkCodec.decode(encoded, new ChunkCodec.Limits(1 << 20, 1000)).size());
    CorruptBlobException tooMany = assertThrows(CorruptBlobException.class,
        () -> ChunkCodec.decode(encoded, new ChunkCodec.Limits(1 << 20, 999)));
    assertTrue(tooMany.getMessage().contains("1000 points exceeds the limit of 999"), tooMany.getMessage());
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(encoded, new ChunkCodec.Limits(100, 1000)));
  }

  @Test
  void onePoint() {
    assertRoundTrip(points(new long[] {1_439_393_134_415_000_000L}, new double[] {42.5}), ChunkCodec.lossless());
  }

  @Test
  void noPoints() {
    assertRoundTrip(new Points(), ChunkCodec.lossless());
  }

  @Test
  void equalTimestamps() {
    assertRoundTrip(points(new long[] {5, 5, 5, 7, 7}, new double[] {1, 2, 3, 4, 5}), ChunkCodec.lossless());
  }

  @Test
  void outOfOrderTimestamps() {
    assertRoundTrip(points(new long[] {50, 10, 40, 20, 30, -3}, new double[] {1, 2, 3, 4, 5, 6}), ChunkCodec.lossless());
  }

  @Test
  void specialValues() {
    double[] values = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
        Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.longBitsToDouble(0x7ff8000000000123L)};
    long[] timestamps = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      timestamps[i] = i * 1000L;
    }
    Points points = points(timestamps, values);
    Points decoded = assertRoundTrip(points, ChunkCodec.lossless());
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(decoded.value(3)));
    assertEquals(0x7ff8000000000123L, Double.doubleToRawLongBits(decoded.value(8)), "NaN payload kept");
  }

  @Test
  void negativeZeroAloneIsKept() {
    Points decoded = assertRoundTrip(points(new long[] {1, 2}, new double[] {-0.0, 0.0}), ChunkCodec.lossless());
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(decoded.value(0)));
  }

  @Test
  void hugeGapsAndExtremeYears() {
    long[] timestamps = {NANOS_1970, 1, NANOS_2200 - 1, NANOS_2200, NANOS_2200 + 999};
    assertRoundTrip(points(timestamps, new double[] {1, 2, 3, 4, 5}), ChunkCodec.lossless());
    long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, Long.MIN_VALUE + 7, Long.MAX_VALUE};
    assertRoundTrip(points(extremes, new double[] {1, 2, 3, 4, 5}), ChunkCodec.lossless());
  }

  @Test
  void microsecondAndNanosecondPrecisionSurvive() {
    long[] timestamps = {1_000_000_001L, 1_000_001_000L, 1_000_002_003L, 1_700_000_000_123_456_789L};
    assertRoundTrip(points(timestamps, new double[] {1, 2, 3, 4}), ChunkCodec.lossless());
  }

  @Test
  void decimalsAndManyDigits() {
    double[] values = {67.1, 0.1, 0.2, 0.30000000000000004, 1e-300, 123456789.123, -5.55, 1e15, 9.007199254740993E15};
    long[] timestamps = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      timestamps[i] = i;
    }
    assertRoundTrip(points(timestamps, values), ChunkCodec.lossless());
    assertEquals(1, ValueEncoding.decimalExponent(new double[] {67.1, 3, 0.5}, 3));
    assertEquals(0, ValueEncoding.decimalExponent(new double[] {1, 2, 1_439_393_134_415d}, 3));
    // a k raised later holds for the values before it, or there is none: 1e15 * 100 is beyond 2^53
    assertEquals(-1, ValueEncoding.decimalExponent(new double[] {1e15, 3, 0.25}, 3));
    assertEquals(2, ValueEncoding.decimalExponent(new double[] {1e12, 0.5, 3, 0.25, 7}, 5));
  }

  @Test
  void randomSeriesRoundTrip() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      int n = random.nextInt(3000);
      long[] timestamps = new long[n];
      double[] values = new double[n];
      long t = random.nextLong() >> 2;
      for (int i = 0; i < n; i++) {
        t += random.nextInt(4) == 0 ? random.nextInt(2_000_000_000) - 100 : 1_000_000_000L;
        timestamps[i] = t;
        switch (round % 4) {
          case 0 -> values[i] = random.nextGaussian();
          case 1 -> values[i] = random.nextInt(100);
          case 2 -> values[i] = Math.round(random.nextGaussian() * 1000) / 10.0;
          default -> values[i] = Double.longBitsToDouble(random.nextLong());
        }
      }
      assertRoundTrip(points(timestamps, values), ChunkCodec.lossless());
    }
  }

  @Test
  void lossyThresholdKeepsEveryTimestampWithinBoundAndLastExact() throws IOException {
    Random random = new Random(7);
    long[] thresholds = {1, 1_000_000, 10_000_000, 50_000_000, 1_000_000_000};
    for (long threshold : thresholds) {
      for (Path file : p4Files().limit(20).collect(Collectors.toList())) {
        Points original = new P4CsvReader().read(file).points();
        checkBound(original, threshold);
      }
      long[] timestamps = new long[5000];
      double[] values = new double[5000];
      long t = 1_439_393_134_415_000_000L;
      for (int i = 0; i < timestamps.length; i++) {
        t += 1_000_000_000L + random.nextInt(100_000_000) - 50_000_000;
        timestamps[i] = t;
        values[i] = i;
      }
      checkBound(points(timestamps, values), threshold);
    }
  }

  @Test
  void lossyThresholdActuallySavesSpaceOnJitteredData() {
    Random random = new Random(3);
    long[] timestamps = new long[10_000];
    double[] values = new double[timestamps.length];
    long t = 0;
    for (int i = 0; i < timestamps.length; i++) {
      t += 1_000_000_000L + (random.nextInt(20) - 10) * 1_000_000L;
      timestamps[i] = t;
    }
    Points points = points(timestamps, values);
    int lossless = new ChunkCodec(Compressions.GZIP, 0).encode(points).length;
    int lossy = new ChunkCodec(Compressions.GZIP, 20_000_000).encode(points).length;
    assertTrue(lossy < lossless * 0.7, "lossy " + lossy + " vs lossless " + lossless);
  }

  private static void checkBound(Points original, long threshold) {
    Points decoded = ChunkCodec.decode(new ChunkCodec(Compressions.GZIP, threshold).encode(original));
    assertEquals(original.size(), decoded.size());
    for (int i = 0; i < original.size(); i++) {
      long error = Math.abs(decoded.timestamp(i) - original.timestamp(i));
      assertTrue(error <= threshold, "point " + i + " moved by " + error + " > " + threshold);
      assertEquals(Double.doubleToRawLongBits(original.value(i)), Double.doubleToRawLongBits(decoded.value(i)));
    }
    int last = original.size() - 1;
    assertEquals(original.timestamp(last), decoded.timestamp(last), "last timestamp exact");
  }

  @Test
  void negativeThresholdIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new ChunkCodec(Compressions.GZIP, -1));
  }

  @Test
  void damagedBlobsAreReportedNotDecoded() {
    Points points = points(new long[] {1, 2, 3, 4}, new double[] {1.5, 2.5, 3.5, 4.5});
    byte[] blob = ChunkCodec.lossless().encode(points);
    byte[] flipped = blob.clone();
    flipped[blob.length / 2] ^= 0x10;
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(flipped));
    byte[] truncated = java.util.Arrays.copyOf(blob, blob.length - 3);
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(truncated));
    byte[] futureVersion = blob.clone();
    futureVersion[0] = 99;
    CorruptBlobException e = assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(futureVersion));
    assertTrue(e.getMessage().contains("version 99"), e.getMessage());
    byte[] unknownCompression = blob.clone();
    unknownCompression[1] = 77;
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(unknownCompression));
    assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(new byte[] {1}));
  }

  /**
   * Found by fuzzing (ChunkDecoderFuzzTest): a version-1 blob of a string series whose dictionary
   * entry claims 2 GB made the decoder allocate that much before reading a byte of it.
   */
  @Test
  void aStringLongerThanTheBlobIsRefusedBeforeAllocating() {
    byte[] blob = java.util.Base64.getDecoder().decode("AQAEBAQEBAQEBAQBAAAA/////wQEBAQoBAQEBAQEBAQEBAQEBAQEJAQEBAQEBAQEBAA=");
    CorruptBlobException e = assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(blob));
    assertTrue(e.getMessage().contains("are left"), e.getMessage());
  }

  @Test
  void blobStartsWithVersionAndCompressionId() {
    byte[] blob = ChunkCodec.lossless().encode(points(new long[] {1}, new double[] {1}));
    assertEquals(ChunkCodec.FORMAT_VERSION, blob[0]);
    assertEquals(Compressions.GZIP.id(), blob[1]);
    assertEquals(Compressions.NONE.id(), new ChunkCodec(Compressions.NONE, 0).encode(points(new long[] {1}, new double[] {1}))[1]);
  }

  @Test
  void compressionByName() {
    assertEquals("gzip:9", Compressions.byName("GZIP:9").name());
    assertEquals("none", Compressions.byName("none").name());
    assertThrows(IllegalArgumentException.class, () -> Compressions.byName("gzip:12"));
    assertThrows(IllegalArgumentException.class, () -> Compressions.byName("zstd:23"));
    assertEquals("xz:9", Compressions.byName("xz:9").name());
    assertThrows(IllegalArgumentException.class, () -> Compressions.byName("lz77"));
  }

  static Points points(long[] timestamps, double[] values) {
    return Points.wrap(timestamps, values, timestamps.length);
  }

  private static Points assertRoundTrip(Points points, ChunkCodec codec) {
    Points decoded = ChunkCodec.decode(codec.encode(points));
    assertEquals(points.size(), decoded.size());
    for (int i = 0; i < points.size(); i++) {
      assertEquals(points.timestamp(i), decoded.timestamp(i), "timestamp " + i);
    }
    assertEquals(points, decoded, "bit-exact values");
    long[] raw = java.util.Arrays.copyOf(points.timestampArray(), points.size());
    assertArrayEquals(raw, java.util.Arrays.copyOf(decoded.timestampArray(), decoded.size()));
    return decoded;
  }

  /** A blob of format version 1 (gzip, no checksum trailer), as the first release wrote them. */
  private static final String VERSION_1_FIXTURE =
      "01011f8b08000000000002ff636e38de797edfec073fd53999181818e5441800c14cfe7112000000";

  @Test
  void version1BlobsStayReadable() {
    Points decoded = ChunkCodec.decode(java.util.HexFormat.of().parseHex(VERSION_1_FIXTURE));
    assertEquals(points(new long[] {1_439_393_134_415_000_000L, 1_439_393_135_415_000_000L, 1_439_393_136_415_000_000L},
        new double[] {1.5, 2.5, 2.5}), decoded);
  }

  @Test
  void uncompressedBlobsCarryAChecksum() {
    Points points = points(new long[] {1, 2, 3, 4}, new double[] {1.5, 2.5, 3.5, 4.5});
    byte[] blob = new ChunkCodec(Compressions.NONE, 0, 3).encode(points);
    assertEquals(3, blob[0], "format version 3");
    for (int i = 2; i < blob.length; i++) {
      byte[] flipped = blob.clone();
      flipped[i] ^= 0x01;
      assertThrows(CorruptBlobException.class, () -> ChunkCodec.decode(flipped), "flip at byte " + i);
    }
  }

  /** Format version 2 as the release before blocks wrote it, uncompressed: doubles, then strings. */
  private static final String VERSION_2_DOUBLES = "02000380c789cfbe9be0f92709020000011e140071fe4cc1";
  private static final String VERSION_2_STRINGS = "02000302000200040202757004646f776e0000018017a442";
  /** The same points in format version 3 as this release writes them; then five points in blocks of two. */
  private static final String VERSION_3_DOUBLES = "0300030180040c0580c789cfbe9be0f92709020000011e14009763202d";
  private static final String VERSION_3_STRINGS = "030003018004040d02000200040202757004646f776e000001787a7b27";
  private static final String VERSION_3_BLOCKS = "03000501020304030402031401023c01026400000002020000060200000a69f8328e";

  @Test
  void version2FixturesStillDecodeAndVersion3FixturesAreWhatTheEncoderWrites() {
    Points doubles = points(new long[] {1_439_393_134_415_000_000L, 1_439_393_135_415_000_000L, 1_439_393_136_415_000_000L},
        new double[] {1.5, 2.5, 2.5});
    Points strings = Points.wrapTexts(new long[] {1, 2, 3}, new String[] {"up", "up", "down"}, 3);
    Points blocks = points(new long[] {10, 20, 30, 40, 50}, new double[] {1, 2, 3, 4, 5});
    java.util.HexFormat hex = java.util.HexFormat.of();
    assertEquals(doubles, ChunkCodec.decode(hex.parseHex(VERSION_2_DOUBLES)));
    assertEquals(strings, ChunkCodec.decode(hex.parseHex(VERSION_2_STRINGS)));
    assertEquals(doubles, ChunkCodec.decode(hex.parseHex(VERSION_3_DOUBLES)));
    assertEquals(strings, ChunkCodec.decode(hex.parseHex(VERSION_3_STRINGS)));
    assertEquals(blocks, ChunkCodec.decode(hex.parseHex(VERSION_3_BLOCKS)));
    ChunkCodec codec = new ChunkCodec(Compressions.NONE, 0);
    assertEquals(VERSION_3_DOUBLES, hex.formatHex(codec.encode(doubles)), "a changed layout needs a new version byte");
    assertEquals(VERSION_3_STRINGS, hex.formatHex(codec.encode(strings)), "a changed layout needs a new version byte");
    assertEquals(VERSION_3_BLOCKS, hex.formatHex(new ChunkCodec(Compressions.NONE, 0, 2).encode(blocks)),
        "a changed layout needs a new version byte");
  }

  /** A version 2 blob cut to a range: the range's points, values after it unread. */
  @Test
  void version2BlobsDecodeToARange() {
    byte[] blob = java.util.HexFormat.of().parseHex(VERSION_2_DOUBLES);
    Points decoded = ChunkCodec.decode(blob, ChunkCodec.Limits.DEFAULT, 1_439_393_135_000_000_000L,
        1_439_393_136_000_000_000L);
    assertEquals(points(new long[] {1_439_393_135_415_000_000L}, new double[] {2.5}), decoded);
  }
}
