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
}
