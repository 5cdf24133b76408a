package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PointsTest {

  /** Whether a range holds a timestamp, for every range around sorted points with gaps and repeats: as clipping tells it. */
  @Test
  void holdsATimestampWhereClippingKeepsOne() {
    long[] timestamps = {3, 5, 5, 6, 10, 20};
    Points points = Points.wrap(timestamps, new double[timestamps.length], timestamps.length);
    for (long from = 0; from <= 22; from++) {
      for (long to = from; to <= 23; to++) {
        assertEquals(!points.clip(from, to).isEmpty(), points.holdsTimestampIn(from, to), "[" + from + ", " + to + ")");
      }
    }
    assertEquals(false, new Points(0).holdsTimestampIn(Long.MIN_VALUE, Long.MAX_VALUE), "no points");
  }

  /** A run of columns' points, picked by an order or taken as they lie, appended as one at a time would. */
  @Test
  void runsOfColumnsAddAsPointByPoint() {
    long[] timestamps = {10, 20, 30, 40, 50};
    double[] doubles = {1.5, -2, 3.25, Double.NaN, 5};
    long[] longs = {Long.MIN_VALUE, 2, 3, 4, Long.MAX_VALUE};
    int[] order = {4, 0, 2, 1, 3};
    for (int[] at : new int[][] {null, order}) {
      for (int from = 0; from <= 5; from++) {
        for (int to = from; to <= 5; to++) {
          Points oneByOne = new Points(ValueType.DOUBLE, 1);
          Points oneByOneLongs = new Points(ValueType.LONG, 1);
          oneByOne.add(1, 0.5); // runs land after what is there
          oneByOneLongs.addLong(1, 7);
          Points run = oneByOne.slice(0, 1);
          Points runOfBits = oneByOne.slice(0, 1);
          Points runOfLongs = oneByOneLongs.slice(0, 1);
          Points runOfLongBits = oneByOneLongs.slice(0, 1);
          long[] bits = new long[doubles.length];
          for (int i = 0; i < doubles.length; i++) {
            bits[i] = Double.doubleToRawLongBits(doubles[i]);
          }
          for (int i = from; i < to; i++) {
            int point = at == null ? i : at[i];
            oneByOne.add(timestamps[point], doubles[point]);
            oneByOneLongs.addLong(timestamps[point], longs[point]);
          }
          run.addDoubles(timestamps, doubles, at, from, to);
          runOfBits.addBits(timestamps, bits, at, from, to);
          runOfLongs.addLongs(timestamps, longs, at, from, to);
          runOfLongBits.addBits(timestamps, longs, at, from, to);
          String what = (at == null ? "in place" : "in order") + " [" + from + ", " + to + ")";
          assertEquals(oneByOne, run, what);
          assertEquals(oneByOne, runOfBits, what);
          assertEquals(oneByOneLongs, runOfLongs, what);
          assertEquals(oneByOneLongs, runOfLongBits, what);
        }
      }
    }
    assertThrows(IllegalStateException.class, () -> new Points(ValueType.LONG, 1).addDoubles(timestamps, doubles, null, 0, 1));
    assertThrows(IllegalStateException.class, () -> new Points(ValueType.DOUBLE, 1).addLongs(timestamps, longs, null, 0, 1));
    assertThrows(IllegalStateException.class, () -> new Points(ValueType.STRING, 1).addBits(timestamps, longs, null, 0, 1));
  }

  @Test
  void sortKeepsLastWriteOfEqualTimestamps() {
    Points points = new Points();
    points.add(30, 3);
    points.add(10, 1);
    points.add(30, 33);
    points.add(20, 2);
    points.add(10, 11);
    points.sortAndDeduplicate();
    assertEquals(Points.wrap(new long[] {10, 20, 30}, new double[] {11, 2, 33}, 3), points);
  }

  /**
   * Larger inputs than the small sort's, of every value type: reversed, random with many equal
   * timestamps, and half the neighbouring pairs swapped as two request threads leave a buffer; each
   * sorted as a stable sort of (timestamp, arrival) has it, so the last arrival of a timestamp is
   * the one kept, with its value.
   */
  @Test
  void sortIsStableOnLargeInputsInAnyOrderOfEveryType() {
    Random random = new Random(7);
    for (ValueType type : List.of(ValueType.DOUBLE, ValueType.LONG, ValueType.STRING, ValueType.ARRAY)) {
      for (String shape : List.of("reversed", "random ties", "swapped pairs")) {
        int n = 5_000;
        Points points = new Points(type, 16);
        java.util.TreeMap<Long, Integer> lastOfEach = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
          long timestamp = switch (shape) {
            case "reversed" -> n - i;
            case "random ties" -> random.nextInt(300);
            default -> (random.nextBoolean() ? i ^ 1 : i) * 10L;
          };
          switch (type) {
            case LONG -> points.addLong(timestamp, i);
            case STRING -> points.addText(timestamp, "v" + i);
            case ARRAY -> points.addArray(timestamp, new double[] {i});
            default -> points.add(timestamp, i);
          }
          lastOfEach.put(timestamp, i);
        }
        points.sortAndDeduplicate();
        String what = type + ", " + shape;
        assertEquals(lastOfEach.size(), points.size(), what);
        int at = 0;
        for (Map.Entry<Long, Integer> expected : lastOfEach.entrySet()) {
          assertEquals(expected.getKey(), points.timestamp(at), what + " at " + at);
          int value = expected.getValue();
          switch (type) {
            case LONG -> assertEquals(value, points.longValue(at), what + " at " + at);
            case STRING -> assertEquals("v" + value, points.text(at), what + " at " + at);
            case ARRAY -> assertEquals(value, points.array(at)[0], what + " at " + at);
            default -> assertEquals(value, points.value(at), what + " at " + at);
          }
          at++;
        }
      }
    }
  }

  @Test
  void addAllAppendsBeyondCapacityAndToItself() {
    Points points = new Points(1);
    points.add(1, 1);
    points.addAll(Points.wrap(new long[] {2, 3, 4}, new double[] {2, 3, 4}, 3));
    points.addAll(points);
    assertEquals(Points.wrap(new long[] {1, 2, 3, 4, 1, 2, 3, 4}, new double[] {1, 2, 3, 4, 1, 2, 3, 4}, 8), points);
  }

  @Test
  void clipIsHalfOpen() {
    Points points = Points.wrap(new long[] {1, 2, 3, 4, 5}, new double[] {1, 2, 3, 4, 5}, 5);
    assertEquals(Points.wrap(new long[] {2, 3}, new double[] {2, 3}, 2), points.clip(2, 4));
    assertEquals(0, points.clip(6, 9).size());
    assertEquals(0, points.clip(4, 2).size());
  }

  @Test
  void mergeOrdersAndLetsLaterChunksWin() {
    Points older = Points.wrap(new long[] {1, 3, 5}, new double[] {1, 3, 5}, 3);
    Points newer = Points.wrap(new long[] {2, 3, 6}, new double[] {2, 30, 6}, 3);
    assertEquals(Points.wrap(new long[] {1, 2, 3, 5, 6}, new double[] {1, 2, 30, 5, 6}, 5),
        SeriesMerge.merge(List.of(older, newer)));
  }

  @Test
  void disjointChunksAreLaidEndToEndWhateverTheirWriteOrder() {
    Points late = Points.wrap(new long[] {7, 9}, new double[] {7, 9}, 2);
    Points early = Points.wrap(new long[] {1, 2}, new double[] {1, 2}, 2);
    Points middle = Points.wrap(new long[] {4, 5}, new double[] {4, 5}, 2);
    List<Points> chunks = List.of(late, Points.wrap(new long[0], new double[0], 0), early, middle);
    assertEquals(List.of(early, middle, late), SeriesMerge.disjointInTimeOrder(chunks));
    assertEquals(Points.wrap(new long[] {1, 2, 4, 5, 7, 9}, new double[] {1, 2, 4, 5, 7, 9}, 6),
        SeriesMerge.merge(chunks));
  }

  @Test
  void disjointChunksWithTiesInsideStillCollapseThem() {
    Points early = Points.wrap(new long[] {1, 2, 2}, new double[] {1, 2, 20}, 3);
    Points late = Points.wrap(new long[] {5, 6}, new double[] {5, 6}, 2);
    assertEquals(Points.wrap(new long[] {1, 2, 5, 6}, new double[] {1, 20, 5, 6}, 4),
        SeriesMerge.merge(List.of(late, early)));
  }

  @Test
  void touchingOrUnsortedChunksTakeTheSortingMerge() {
    Points older = Points.wrap(new long[] {1, 3}, new double[] {1, 3}, 2);
    Points newer = Points.wrap(new long[] {3, 4}, new double[] {30, 4}, 2);
    assertNull(SeriesMerge.disjointInTimeOrder(List.of(newer, older)), "sharing timestamp 3");
    assertEquals(Points.wrap(new long[] {1, 3, 4}, new double[] {1, 30, 4}, 3), SeriesMerge.merge(List.of(older, newer)));
    Points unsorted = Points.wrap(new long[] {8, 6}, new double[] {8, 6}, 2);
    assertNull(SeriesMerge.disjointInTimeOrder(List.of(older, unsorted)));
    assertEquals(Points.wrap(new long[] {1, 3, 6, 8}, new double[] {1, 3, 6, 8}, 4),
        SeriesMerge.merge(List.of(older, unsorted)));
  }

  /**
   * Overlapping sorted chunks take the linear merge: whatever their number, overlap and ties
   * (within a chunk and across chunks), the answer is the last write of every timestamp, as a
   * map filled in write order says.
   */
  @Test
  void overlappingSortedChunksMergeToTheLastWriteOfEachTimestamp() {
    java.util.Random random = new java.util.Random(7);
    for (int trial = 0; trial < 500; trial++) {
      int chunkCount = 2 + random.nextInt(6);
      java.util.List<Points> chunks = new java.util.ArrayList<>();
      java.util.TreeMap<Long, Double> lastWrite = new java.util.TreeMap<>();
      double next = 0;
      for (int c = 0; c < chunkCount; c++) {
        Points chunk = new Points();
        long timestamp = random.nextInt(40);
        for (int i = random.nextInt(30); i > 0; i--) {
          timestamp += random.nextInt(4); // steps of 0 are ties inside the chunk
          chunk.add(timestamp, ++next);
          lastWrite.put(timestamp, next);
        }
        chunks.add(chunk);
      }
      Points expected = new Points();
      lastWrite.forEach(expected::add);
      assertEquals(expected, SeriesMerge.merge(chunks), "trial " + trial);
    }
  }

  @Test
  void overlappingChunksOfNumbersMergeAsDoubles() {
    Points longs = Points.wrapLongs(new long[] {1, 3, 5}, new long[] {10, 30, 50}, 3);
    Points doubles = Points.wrap(new long[] {2, 3, 4}, new double[] {2.5, 3.5, 4.5}, 3);
    assertEquals(Points.wrap(new long[] {1, 2, 3, 4, 5}, new double[] {10, 2.5, 3.5, 4.5, 50}, 5),
        SeriesMerge.merge(List.of(longs, doubles)));
    assertEquals(Points.wrapLongs(new long[] {1, 3, 5}, new long[] {10, 30, 50}, 3), longs, "input left as it was");
  }

  @Test
  void seriesKeyIdentity() {
    SeriesKey a = SeriesKey.metric("cpu", Map.of("host", "a", "dc", "x"));
    SeriesKey b = SeriesKey.metric("cpu", Map.of("dc", "x", "host", "a"));
    assertEquals(a, b);
    assertEquals(a.id(), b.id());
    assertNotEquals(a.id(), SeriesKey.metric("cpu", Map.of("host", "ax", "dc", "")).id());
    assertEquals(16, a.id().length());
    assertEquals(a.routingId(), SeriesKey.metric("cpu", Map.of("host", "b")).routingId(), "routing ignores attributes");
    assertNotEquals(a.routingId(), SeriesKey.metric("mem", Map.of("host", "a")).routingId());
    assertThrows(IllegalArgumentException.class, () -> SeriesKey.metric("", Map.of()));
  }

  /** From any start at or before the answer, the strides find what a search over all the points finds. */
  @Test
  void searchingOnFromAnEarlierAnswerFindsWhatASearchOverAllFinds() {
    Random random = new Random(8);
    for (int round = 0; round < 2_000; round++) {
      int size = random.nextInt(300);
      long[] timestamps = new long[size + random.nextInt(3)]; // room after the points is not searched
      long t = random.nextInt(100) - 50;
      for (int i = 0; i < size; i++) {
        t += random.nextInt(3) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 3 : 1_000); // repeats too
        timestamps[i] = t;
      }
      long target = random.nextInt((int) Math.max(1, t + 200)) - 100;
      int expected = Points.lowerBound(timestamps, size, target);
      int from = random.nextInt(expected + 1);
      assertEquals(expected, Points.lowerBoundFrom(timestamps, from, size, target),
          "round " + round + ": " + size + " points from " + from + " to " + target);
    }
  }
}
