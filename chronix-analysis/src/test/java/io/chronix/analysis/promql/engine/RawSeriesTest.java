package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RawSeriesTest {

  /**
   * The instant selector's search from the last step's answer: for step times that do not
   * decrease (steps of any size, an @ time repeated), the same index as a search over all samples,
   * up to the largest time.
   */
  @Test
  void searchingOnFromTheLastStepFindsWhatASearchOverAllFinds() {
    Random random = new Random(13);
    for (int round = 0; round < 1_000; round++) {
      int size = random.nextInt(400);
      long[] timestamps = new long[size + random.nextInt(3)]; // room after the samples is not searched
      long t = random.nextInt(1_000) - 500;
      for (int i = 0; i < size; i++) {
        t += 1 + random.nextInt(random.nextBoolean() ? 5 : 20_000);
        timestamps[i] = t;
      }
      RawSeries series = new RawSeries(Labels.EMPTY, timestamps, new double[timestamps.length], size);
      long step = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(60_000);
      long time = random.nextInt(2_000) - 1_000;
      int after = 0;
      for (int i = 0; i < 300; i++, time += step) {
        after = series.upperBoundOnwards(after, time);
        assertEquals(series.upperBound(time), after, "round " + round + ", step " + i + " at " + time);
      }
      assertEquals(size, series.upperBoundOnwards(after, Long.MAX_VALUE), "round " + round + " at the largest time");
    }
  }

  /**
   * A range selector's samples without stale markers, wherever they stand (first, last, between,
   * replaced by a later point of their millisecond) and however the series was made: the same
   * samples as a pass over all of them keeps.
   */
  @Test
  void rangeSamplesLeaveOutEveryStaleMarker() {
    Random random = new Random(31);
    for (int round = 0; round < 500; round++) {
      int size = random.nextInt(40);
      Points points = new Points(size);
      long t = 1_000_000L * random.nextInt(1_000);
      for (int i = 0; i < size; i++) {
        t += random.nextInt(4) == 0 ? random.nextInt(1_000_000) : 1_000_000L * (1 + random.nextInt(5));
        points.add(t, random.nextInt(6) == 0 ? Double.longBitsToDouble(StaleMarker.BITS) : i);
      }
      RawSeries fromNanos = RawSeries.fromNanos(Labels.EMPTY, points);
      RawSeries fromArrays = new RawSeries(Labels.EMPTY, fromNanos.timestampArray().clone(),
          fromNanos.valueArray().clone(), fromNanos.size());
      for (RawSeries series : new RawSeries[] {fromNanos, fromArrays, fromNanos.withLabels(Labels.EMPTY)}) {
        RawSeries kept = series.withoutStaleMarkers();
        int k = 0;
        for (int i = 0; i < series.size(); i++) {
          if (!StaleMarker.is(series.value(i))) {
            assertEquals(series.timestamp(i), kept.timestamp(k), "round " + round + ", sample " + i);
            assertEquals(series.value(i), kept.value(k++), "round " + round + ", sample " + i);
          }
        }
        assertEquals(k, kept.size(), "round " + round);
      }
    }
  }

  /**
   * Milliseconds as {@code Math.floorDiv} gives them, for the steps the conversion carries from
   * point to point: one step repeated (whole milliseconds and not), steps that change, negative
   * times, points within one millisecond, steps across the whole range of a long, and points out
   * of order.
   */
  @Test
  void millisecondsFromNanosecondsAreTheFloorOfEachTimestamp() {
    Random random = new Random(7);
    long[][] fixed = {
        {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE},
        {Long.MIN_VALUE, Long.MAX_VALUE},
        {Long.MAX_VALUE - 1, Long.MAX_VALUE},
        {Long.MIN_VALUE, Long.MIN_VALUE + 999_999, Long.MIN_VALUE + 1_000_000},
        {-2_000_001, -1_000_001, -1, 999_999, 1_999_999},
        {5_000_000, 4_000_000, Long.MAX_VALUE, Long.MIN_VALUE, 3},
        // a whole millisecond after a part of one, then the same step again: not whole any more
        {500_000, 2_000_000, 3_500_000, 5_000_000},
        // a whole step that wraps around the long's range lands on the other side, not a step further
        {9_223_372_036_852_000_000L, 9_223_372_036_854_000_000L, -9_223_372_036_853_551_616L},
        // and a step measured across the range's wrap is no step
        {9_223_372_036_854_000_000L, -9_223_372_036_854_000_000L, -9_223_372_036_852_448_384L},
        {-3_000_000, -2_000_000, -1_000_000, 0, 1_000_000, 2_000_000, 2_000_001, 3_000_001, 4_000_000},
    };
    for (long[] timestamps : fixed) {
      assertMillis(timestamps, "fixed " + java.util.Arrays.toString(timestamps));
    }
    for (int round = 0; round < 2_000; round++) {
      long[] timestamps = new long[random.nextInt(300)];
      long t = random.nextLong() / (1 + random.nextInt(1_000_000));
      if (random.nextBoolean()) {
        t = t / 1_000_000 * 1_000_000; // whole milliseconds, as scraped series mostly are
      }
      long step = random.nextBoolean() ? 1_000_000L * (1 + random.nextInt(60_000)) : 1 + random.nextInt(3_000_000);
      for (int i = 0; i < timestamps.length; i++) {
        timestamps[i] = t;
        int kind = random.nextInt(20);
        long next = kind == 0 ? random.nextInt(1_000_000) : kind == 1 ? 1 + random.nextInt(5_000_000) : step;
        if (kind == 2) {
          step = random.nextBoolean() ? 1_000_000L * (1 + random.nextInt(60_000)) : 1 + random.nextInt(3_000_000);
        }
        t = t > Long.MAX_VALUE - next ? t : t + next;
      }
      assertMillis(timestamps, "round " + round);
    }
  }

  /** The conversion against a division a point, the later point of a millisecond kept. */
  private static void assertMillis(long[] timestamps, String message) {
    Points points = new Points(timestamps.length);
    long[] expectedMillis = new long[timestamps.length];
    double[] expectedValues = new double[timestamps.length];
    int expected = 0;
    for (int i = 0; i < timestamps.length; i++) {
      points.add(timestamps[i], i);
      long millis = Math.floorDiv(timestamps[i], 1_000_000L);
      if (expected == 0 || expectedMillis[expected - 1] != millis) {
        expected++;
      }
      expectedMillis[expected - 1] = millis;
      expectedValues[expected - 1] = i;
    }
    Points given = new Points(timestamps.length);
    given.addAll(points);
    for (RawSeries series : new RawSeries[] {RawSeries.fromNanos(Labels.EMPTY, points),
        RawSeries.fromNanosInPlace(Labels.EMPTY, given)}) {
      assertEquals(expected, series.size(), message);
      for (int k = 0; k < expected; k++) {
        assertEquals(expectedMillis[k], series.timestamp(k), message + ", sample " + k);
        assertEquals(expectedValues[k], series.value(k), message + ", sample " + k);
      }
    }
    for (int i = 0; i < timestamps.length; i++) {
      assertEquals(timestamps[i], points.timestamp(i), "fromNanos leaves its points as they are");
    }
  }

  /** Long values come as doubles either way; the points of another type keep their longs. */
  @Test
  void longPointsConvertInPlaceToo() {
    Points longs = new Points(io.chronix.core.series.ValueType.LONG, 4);
    longs.addLong(1_000_000L, 7);
    longs.addLong(2_000_000L, 1L << 53);
    longs.addLong(2_500_000L, 9);
    RawSeries series = RawSeries.fromNanosInPlace(Labels.EMPTY, longs);
    assertEquals(2, series.size());
    assertEquals(1, series.timestamp(0));
    assertEquals(7.0, series.value(0));
    assertEquals(2, series.timestamp(1));
    assertEquals(9.0, series.value(1), "the later point of a millisecond");
    assertEquals(1L << 53, longs.longValue(1));
  }
}
