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
    assertEquals(whole.size(), joined.size());
    for (int i = 0; i < whole.size(); i++) {
      assertEquals(whole.start(i), joined.start(i));
      assertEquals(whole.count(i), joined.count(i));
      assertEquals(whole.valueCount(i), joined.valueCount(i));
      assertEquals(whole.min(i), joined.min(i));
      assertEquals(whole.max(i), joined.max(i));
      assertEquals(whole.sum(i), joined.sum(i)); // eighths: sums exact here
      assertEquals(Double.doubleToRawLongBits(whole.first(i)), Double.doubleToRawLongBits(joined.first(i)));
      assertEquals(Double.doubleToRawLongBits(whole.last(i)), Double.doubleToRawLongBits(joined.last(i)));
    }
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
    assertEquals(direct.size(), viaTier.size());
    for (int i = 0; i < direct.size(); i++) {
      assertEquals(direct.start(i), viaTier.start(i));
      assertEquals(direct.count(i), viaTier.count(i));
      assertEquals(direct.min(i), viaTier.min(i));
      assertEquals(direct.max(i), viaTier.max(i));
      assertEquals(direct.sum(i), viaTier.sum(i));
      assertEquals(direct.first(i), viaTier.first(i));
      assertEquals(direct.last(i), viaTier.last(i));
    }
  }

  @Test
  void theBlobRoundTripsBitForBitAndRefusesDamage() {
    Points points = new Points();
    points.add(0, 1.5);
    points.add(MINUTE, Double.NaN);
    points.add(7 * MINUTE, -0.0);
    points.add(7 * MINUTE + 1, Double.MAX_VALUE);
    BucketStats stats = BucketStats.of(points, 5 * MINUTE);
    byte[] blob = RollupBlob.encode(stats);
    BucketStats back = RollupBlob.decode(blob);
    assertEquals(2, back.size());
    assertEquals(5 * MINUTE, back.start(1));
    assertEquals(2, back.count(0));
    assertEquals(1, back.valueCount(0));
    assertEquals(1.5, back.sum(0));
    assertTrue(Double.isNaN(back.last(0)));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(back.first(1)));
    assertEquals(Double.MAX_VALUE, back.max(1));
    assertTrue(RollupBlob.decode(RollupBlob.encode(new BucketStats(MINUTE, 1))).size() == 0);

    byte[] newer = blob.clone();
    newer[0] = 2;
    assertTrue(assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(newer)).getMessage()
        .contains("format version 2"));
    byte[] cut = java.util.Arrays.copyOf(blob, blob.length - 3);
    assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(cut));
    byte[] longer = java.util.Arrays.copyOf(blob, blob.length + 1);
    assertTrue(assertThrows(CorruptBlobException.class, () -> RollupBlob.decode(longer)).getMessage()
        .contains("bytes left"));
  }
}
