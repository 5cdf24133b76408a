package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PackedPointsTest {

  /** Packs the points one at a time and checks what comes back, bit for bit and in order. */
  private static PackedPoints roundTrip(Points points) {
    PackedPoints packed = new PackedPoints(points.type());
    for (int i = 0; i < points.size(); i++) {
      if (points.type() == ValueType.LONG) {
        packed.addLong(points.timestamp(i), points.longValue(i));
      } else {
        packed.add(points.timestamp(i), points.value(i));
      }
    }
    assertEquals(points, packed.unpack());
    assertEquals(points, PackedPoints.of(points).unpack(), "packed a run at a time");
    Points appended = new Points(points.type(), 1);
    if (!points.isEmpty()) {
      appended.addFrom(points, 0);
    }
    packed.addTo(appended);
    assertEquals(points.size() + Math.min(1, points.size()), appended.size());
    assertEquals(points, appended.slice(Math.min(1, points.size()), appended.size()), "appended behind others");
    assertEquals(points.size(), packed.size());
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < points.size(); i++) {
      min = Math.min(min, points.timestamp(i));
      max = Math.max(max, points.timestamp(i));
    }
    assertEquals(min, packed.minTimestamp());
    assertEquals(max, packed.maxTimestamp());
    return packed;
  }

  private static long timestamp(Random random, long previous) {
    switch (random.nextInt(6)) {
      case 0:
        return previous - random.nextInt(5_000); // late or repeated
      case 1:
        return random.nextLong(); // anywhere, wrapping the deltas
      default:
        return previous + 1_000_000_000L + random.nextInt(3) - 1; // a steady interval with jitter
    }
  }

  @Test
  void randomDoublesOfEveryFormComeBackBitForBit() {
    Random random = new Random(7);
    double[] awkward = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE, Double.MAX_VALUE, 0x1p53, 0x1p53 + 2, Math.PI, 1e-15, 123456.789012345};
    for (int round = 0; round < 300; round++) {
      Points points = new Points(ValueType.DOUBLE, 4);
      long t = random.nextLong();
      int n = random.nextInt(400);
      int decimals = random.nextInt(4);
      for (int i = 0; i < n; i++) {
        t = timestamp(random, t);
        double value;
        int kind = random.nextInt(round % 3 == 0 ? 40 : 1_000_000);
        if (kind == 0) {
          value = awkward[random.nextInt(awkward.length)];
        } else if (kind == 1) {
          decimals = Math.min(15, decimals + 1); // a value with more digits: the points repack
          value = random.nextInt(100_000) / Math.pow(10, decimals);
        } else {
          value = (random.nextInt(2_000_000) - 1_000_000) / Math.pow(10, decimals);
        }
        points.add(t, value);
      }
      roundTrip(points);
    }
  }

  @Test
  void longsAndBooleansComeBackExactly() {
    Random random = new Random(11);
    for (int round = 0; round < 100; round++) {
      Points longs = new Points(ValueType.LONG, 4);
      Points booleans = new Points(ValueType.BOOLEAN, 4);
      long t = 0;
      int n = random.nextInt(300);
      for (int i = 0; i < n; i++) {
        t = timestamp(random, t);
        long value = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(100);
        longs.addLong(t, value);
        booleans.addBoolean(t, random.nextBoolean());
      }
      longs.addLong(t + 1, Long.MIN_VALUE);
      longs.addLong(t + 2, Long.MAX_VALUE);
      roundTrip(longs);
      roundTrip(booleans);
    }
  }

  @Test
  void wordsAreBitsOfDoublesOrLongsAsTheTypeHasThem() {
    long[] timestamps = {10, 20, 15};
    long[] words = {Double.doubleToRawLongBits(1.5), Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(2)};
    int[] order = {2, 0, 1};
    PackedPoints doubles = new PackedPoints(ValueType.DOUBLE);
    doubles.addBits(timestamps, words, order, 1, 3);
    assertEquals(Points.wrap(new long[] {10, 20}, new double[] {1.5, -0.0}, 2), doubles.unpack());
    PackedPoints longs = new PackedPoints(ValueType.LONG);
    longs.addBits(timestamps, words, null, 0, 3);
    assertEquals(Points.wrapLongs(timestamps, words, 3), longs.unpack());
  }

  @Test
  void aGaugeAtASteadyIntervalTakesAFewBytesAPoint() {
    PackedPoints packed = new PackedPoints(ValueType.DOUBLE);
    long start = 1_700_000_000_000_000_000L;
    for (int i = 0; i < 1_000; i++) {
      packed.add(start + i * 10_000_000_000L, (i % 1000) / 10.0); // one decimal, every 10 s
    }
    assertEquals(1, packed.exponent());
    assertTrue(packed.length() <= 2 * 1_000 + 20, "bytes: " + packed.length());
    assertTrue(packed.heapBytes() < 4 * 1_000, "heap: " + packed.heapBytes());
  }

  @Test
  void theFormFollowsTheValues() {
    PackedPoints packed = new PackedPoints(ValueType.DOUBLE);
    packed.add(1, 50);
    assertEquals(0, packed.exponent());
    packed.add(2, 50.25);
    assertEquals(2, packed.exponent(), "repacked for two decimals");
    packed.add(3, Double.NaN);
    assertEquals(-1, packed.exponent(), "no decimal form holds NaN");
    packed.add(4, 7);
    assertEquals(-1, packed.exponent(), "the XOR form stays for these points");
    Points expected = new Points(ValueType.DOUBLE, 4);
    expected.add(1, 50);
    expected.add(2, 50.25);
    expected.add(3, Double.NaN);
    expected.add(4, 7);
    assertEquals(expected, packed.unpack());
    PackedPoints next = new PackedPoints(ValueType.DOUBLE, 16, packed.exponent());
    assertEquals(0, next.exponent(), "the next points try the decimal form again");
    assertEquals(3, new PackedPoints(ValueType.DOUBLE, 0, 3).exponent(), "a series' last exponent");
  }

  @Test
  void takingAllLeavesTheArrayUpToABoundAndThePointsWithTheTaker() {
    Random random = new Random(13);
    Points points = new Points(ValueType.DOUBLE, 4);
    for (int i = 0; i < 200; i++) {
      points.add(random.nextInt(1_000_000), random.nextInt(1000) / 4.0);
    }
    PackedPoints packed = PackedPoints.of(points);
    long arrayBytes = packed.heapBytes();
    PackedPoints taken = packed.takeAll(Integer.MAX_VALUE);
    assertEquals(points, taken.unpack());
    assertEquals(taken.length(), taken.heapBytes() - new PackedPoints(ValueType.DOUBLE).heapBytes(), "an exact copy");
    assertTrue(packed.isEmpty());
    assertEquals(arrayBytes, packed.heapBytes(), "the array is kept");
    assertEquals(2, packed.exponent(), "quarters");
    assertEquals(Long.MAX_VALUE, packed.minTimestamp());
    packed.add(5, 1.25);
    assertEquals(Points.wrap(new long[] {5}, new double[] {1.25}, 1), packed.unpack(), "starts again from nothing");
    assertEquals(points, taken.unpack(), "the taken points are the taker's alone");

    packed.add(6, Double.NaN);
    PackedPoints bounded = PackedPoints.of(points);
    bounded.add(7, Double.NaN);
    int filled = bounded.length();
    assertEquals(-1, bounded.takeAll(64).exponent(), "taken in the XOR form");
    assertEquals(0, bounded.exponent(), "the next points try the decimal form again");
    assertEquals(Math.min(filled, 64), bounded.heapBytes() - new PackedPoints(ValueType.DOUBLE).heapBytes(),
        "a larger array is let go");
  }

  @Test
  void onlyNumericPointsPack() {
    assertThrows(IllegalArgumentException.class, () -> new PackedPoints(ValueType.STRING));
    assertThrows(IllegalArgumentException.class, () -> new PackedPoints(ValueType.ARRAY));
    assertThrows(IllegalStateException.class, () -> new PackedPoints(ValueType.LONG).add(1, 1.5));
    assertThrows(IllegalStateException.class, () -> new PackedPoints(ValueType.DOUBLE).addLong(1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> new PackedPoints(ValueType.DOUBLE).addTo(new Points(ValueType.LONG, 1)));
    PackedPoints empty = new PackedPoints(ValueType.LONG);
    assertTrue(empty.isEmpty());
    assertTrue(empty.unpack().isEmpty());
    assertFalse(PackedPoints.of(Points.wrapLongs(new long[] {1}, new long[] {2}, 1)).isEmpty());
  }
}
