package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import org.junit.jupiter.api.Test;

class SeriesBufferTest {

  private static SeriesBuffer bufferOf(long... timestamps) {
    SeriesBuffer buffer = new SeriesBuffer(ValueType.DOUBLE, 0, new Object());
    for (long timestamp : timestamps) {
      buffer.arrive(0, SeriesBuffer.NO_SEGMENT, BufferMemory.NUMERIC_POINT);
      buffer.points().add(timestamp, timestamp * 10.0);
    }
    return buffer;
  }

  @Test
  void pointsInStrictOrderAreTrackedWithoutACopy() {
    SeriesBuffer buffer = bufferOf(1, 2, 3);
    SeriesBuffer.Drained drained = buffer.drain(true, 0);
    assertSame(drained.points(), drained.outgoing().points, "the store leaves ordered points as they are");
    drained.points().sortAndDeduplicate(); // what the record sink does: nothing here
    assertEquals(3, buffer.copyUnsearchable().size());
    assertEquals(3 * BufferMemory.NUMERIC_POINT, buffer.retainedBytes(), "counted as before");
    assertEquals(0, buffer.points().size(), "the buffer starts again empty");
  }

  @Test
  void pointsOutOfOrderAreTrackedAsACopyTheStoreCannotReorder() {
    SeriesBuffer buffer = bufferOf(3, 1, 2, 2);
    SeriesBuffer.Drained drained = buffer.drain(true, 0);
    assertNotSame(drained.points(), drained.outgoing().points);
    drained.points().sortAndDeduplicate();
    assertEquals(3, drained.points().size());
    assertEquals(java.util.Arrays.toString(new long[] {3, 1, 2, 2}),
        java.util.Arrays.toString(timestampsOf(buffer.copyUnsearchable())), "searches see the points as they came");
  }

  @Test
  void untrackedDrainsKeepNothing() {
    SeriesBuffer buffer = bufferOf(1, 2);
    SeriesBuffer.Drained drained = buffer.drain(false, 0);
    assertEquals(null, drained.outgoing());
    assertEquals(null, buffer.copyUnsearchable());
  }

  @Test
  void aDrainedBufferStartsAgainWithItsLastChunksSizeWithinBounds() {
    for (int[] expected : new int[][] {{3, SeriesBuffer.INITIAL_CAPACITY}, {20, 20}, {1000, SeriesBuffer.RESTART_CAPACITY}}) {
      long[] timestamps = new long[expected[0]];
      for (int i = 0; i < timestamps.length; i++) {
        timestamps[i] = i;
      }
      SeriesBuffer buffer = bufferOf(timestamps);
      buffer.drain(false, 0);
      assertEquals(expected[1], buffer.points().timestampArray().length, expected[0] + " points drained");
      assertEquals(0, buffer.points().size());
    }
  }

  private static long[] timestampsOf(Points points) {
    return java.util.Arrays.copyOf(points.timestampArray(), points.size());
  }
}
