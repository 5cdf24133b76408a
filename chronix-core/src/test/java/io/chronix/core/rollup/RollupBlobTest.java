package io.chronix.core.rollup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.Points;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RollupBlobTest {

  private static final long MINUTE = 60_000_000_000L;

  @Test
  void statisticsOfRunsCombineIntoThoseOfTheWholeSeries() {
    Random random = new Random(5);
    Points all = new Points();
    long t = -3 * MINUTE; // before the epoch too
    for (int i = 0; i < 5000; i++) {
      t += 1 + random.nextInt(20_000) * 1_000_000L;
      all.add(t, random.nextInt(10) == 0 ? Double.NaN : random.nextInt(1000) / 8.0);
    }
    BucketStats whole = BucketStats.of(all, 5 * MINUTE);
    BucketStats joined = BucketStats.of(all.slice(0, 1234), 5 * MINUTE)
        .then(BucketStats.of(all.slice(1234, 4000), 5 * MINUTE))
        .then(BucketStats.of(all.slice(4000, 5000), 5 * MINUTE));
    assertEquals(whole, joined); // eighths: the partial sums are exact here
    org.junit.jupiter.api.Assertions.assertNotEquals(whole, BucketStats.of(all.slice(0, 4999), 5 * MINUTE),
        "one point less is another statistic");
  }

  @Test
  void aFinerTierAnswersACoarserInterval() {
    Random random = new Random(9);
    Points all = new Points();
    for (int i = 0; i < 3000; i++) {
      all.add(i * 7_000_000_000L, random.nextInt(100));
    }
    BucketStats direct = BucketStats.of(all, 60 * MINUTE);
    BucketStats viaTier = BucketStats.of(all, 5 * MINUTE).rebucket(60 * MINUTE);
    assertEquals(direct, viaTier);
  }

  @Test
  void windowsAreClosedAtTheirEndAsPromQlWindowsAre() {
    Points points = new Points();
    long m = 60_000L; // milliseconds
    points.add(0, 1); // on a boundary: the window (-5m, 0]
    points.add(5 * m * 1_000_000L, 2); // the end of (0, 5m]
    points.add(5 * m * 1_000_000L + 1, 9); // the same millisecond: the later point wins
    points.add((5 * m + 1) * 1_000_000L, 3); // (5m, 10m]
    points.add(10 * m * 1_000_000L - 1, Double.NaN); // 10m - 1 ns: millisecond 10m - 1
    BucketStats windows = BucketStats.windows(points, 5 * m);
    assertEquals(3, windows.size());
    assertEquals(-5 * m, windows.start(0));
    assertEquals(1, windows.count(0));
    assertEquals(0, windows.start(1));
    assertEquals(1, windows.count(1), "two points of one millisecond are one sample");
    assertEquals(9, windows.last(1));
    assertEquals(5 * m, windows.firstTime(1));
    assertEquals(5 * m, windows.start(2));
    assertEquals(2, windows.count(2));
    assertEquals(1, windows.valueCount(2));
    assertEquals(5 * m + 1, windows.firstTime(2));
    assertEquals(10 * m - 1, windows.lastTime(2));
    assertEquals(3, windows.max(2));
    // the downsample intervals of the same points are closed at their start
    BucketStats intervals = BucketStats.of(points, 5 * m * 1_000_000L);
    assertEquals(2, intervals.size());
    assertEquals(1, intervals.count(0));
    assertEquals(4, intervals.count(1));
    // a window of 10m ending at 10m: rebucketed, the windows (0, 10m]
    BucketStats tenMinutes = windows.rebucket(10 * m);
    assertEquals(0, tenMinutes.start(1));
    assertEquals(3, tenMinutes.count(1));
  }

  @Test
  void withinKeepsWholeIntervalsAndWithoutDropsTouchedOnes() {
    Points points = new Points();
    for (int minute = 0; minute < 30; minute++) {
      points.add(minute * MINUTE, minute);
    }
    RollupStats stats = RollupStats.of(points, 5 * MINUTE);
    long m = 60_000L;
    RollupStats inside = stats.within(7 * m, 20 * m - 1);
    assertEquals(2, inside.intervals().size(), "[10m, 15m) and [15m, 20m)");
    assertEquals(10 * MINUTE, inside.intervals().start(0));
    assertEquals(1, inside.windows().size(), "(10m, 15m]: (15m, 20m] reaches past 20m - 1 ms");
    assertEquals(10 * m, inside.windows().start(0));
    RollupStats rest = stats.without(7 * m, 7 * m);
    assertEquals(5, rest.intervals().size(), "[5m, 10m) holds the deleted moment");
    assertEquals(10 * MINUTE, rest.intervals().start(1));
    assertEquals(6, rest.windows().size(), "of seven windows, (5m, 10m] holds it");
    assertEquals(10 * m, rest.windows().start(2));
    assertEquals(6, stats.without(Long.MIN_VALUE, -1).intervals().size());
    assertTrue(stats.without(Long.MIN_VALUE, Long.MAX_VALUE).isEmpty());
  }

  @Test
  void theBlobRoundTripsBitForBitAndRefusesDamage() {
    Points points = new Points();
    points.add(0, 1.5);
    points.add(MINUTE, Double.NaN);
    points.add(7 * MINUTE, -0.0);
    points.add(7 * MINUTE + 1, Double.MAX_VALUE);
    RollupStats stats = RollupStats.of(points, 5 * MINUTE);
    byte[] blob = RollupBlob.encode(stats);
    assertEquals(2, blob[0], "format version 2");
    BucketStats back = RollupBlob.decode(blob).intervals();
    assertEquals(2, back.size());
    assertEquals(5 * MINUTE, back.start(1));
    assertEquals(2, back.count(0));
    assertEquals(1, back.valueCount(0));
    assertEquals(1.5, back.sum(0));
    assertTrue(Double.isNaN(back.last(0)));
    assertEquals(MINUTE, back.lastTime(0));
    assertEquals(7 * MINUTE, back.firstTime(1));
    assertEquals(7 * MINUTE + 1, back.lastTime(1));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(back.first(1)));
    assertEquals(Double.MAX_VALUE, back.max(1));
    BucketStats windows = RollupBlob.decode(blob).windows();
    assertEquals(3, windows.size(), "(-5m, 0], (0, 5m], (5m, 10m]");
    assertEquals(7 * 60_000L, windows.lastTime(2));
    assertEquals(Double.MAX_VALUE, windows.last(2));
    assertEquals(0, RollupBlob.decode(RollupBlob.encode(RollupStats.of(new Points(), MINUTE))).intervals().size());
    RollupStats intervalsOnly = RollupBlob.decodeIntervals(blob);
    assertEquals(null, intervalsOnly.windows(), "the windows left unread");
    assertEquals(back.count(1), intervalsOnly.intervals().count(1));

    byte[] newer = blob.clone();
    newer[0] = 3;
    assertTrue(assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(newer)).getMessage()
        .contains("format version 3"));
    byte[] cut = java.util.Arrays.copyOf(blob, blob.length - 3);
    assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(cut));
    byte[] longer = java.util.Arrays.copyOf(blob, blob.length + 1);
    assertTrue(assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(longer)).getMessage()
        .contains("bytes left"));
    for (int length = 1; length < blob.length; length++) {
      byte[] shorter = java.util.Arrays.copyOf(blob, length);
      assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(shorter), "cut to " + length + " bytes");
    }
  }

  /** Blobs written before format version 2 are still read: their intervals, and no windows. */
  @Test
  void version1BlobsAreStillRead() {
    io.chronix.core.codec.ByteWriter out = new io.chronix.core.codec.ByteWriter(64);
    out.writeByte(1);
    out.writeVarLong(5 * MINUTE);
    out.writeVarLong(2); // intervals
    out.writeZigZag(0);
    out.writeVarLong(5 * MINUTE);
    out.writeVarLong(2); // points and values of the first
    out.writeVarLong(1);
    out.writeVarLong(1);
    out.writeVarLong(1);
    for (double value : new double[] {1.5, 1.5, 1.5, 1.5, Double.NaN, 4, 4, 4, 4, 4}) {
      out.writeLong(Double.doubleToRawLongBits(value));
    }
    byte[] blob = java.util.Arrays.copyOf(out.array(), out.size());
    RollupStats stats = RollupBlob.decode(blob);
    assertEquals(null, stats.windows(), "version 1 has no PromQL windows");
    assertEquals(2, stats.intervals().size());
    assertEquals(2, stats.intervals().count(0));
    assertEquals(4, stats.intervals().max(1));
    assertTrue(Double.isNaN(stats.intervals().last(0)));
    assertEquals(null, stats.then(RollupStats.of(new Points(), 5 * MINUTE)).windows(),
        "joined with a version 1 rollup, the windows are unknown");
    assertEquals(java.util.Arrays.toString(blob), java.util.Arrays.toString(RollupBlob.encode(stats)),
        "rewritten, version 1 statistics stay version 1");
    byte[] cut = java.util.Arrays.copyOf(blob, blob.length - 1);
    assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(cut));
  }
}
