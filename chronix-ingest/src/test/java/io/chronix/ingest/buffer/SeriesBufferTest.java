package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.PackedPoints;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import org.junit.jupiter.api.Test;

class SeriesBufferTest {

  private static SeriesBuffer bufferOf(long... timestamps) {
    SeriesBuffer buffer = new SeriesBuffer(ValueType.DOUBLE, 0, new Object());
    for (long timestamp : timestamps) {
      buffer.arrive(0, SeriesBuffer.NO_SEGMENT, 0);
      buffer.packed().add(timestamp, timestamp * 10.0);
      buffer.countPacked();
    }
    return buffer;
  }

  private static SeriesBuffer textsOf(long... timestamps) {
    SeriesBuffer buffer = new SeriesBuffer(ValueType.STRING, 0, new Object());
    for (long timestamp : timestamps) {
      buffer.arrive(0, SeriesBuffer.NO_SEGMENT, BufferMemory.textPoint("up"));
      buffer.points().addText(timestamp, "up");
    }
    return buffer;
  }

  @Test
  void textsInStrictOrderAreTrackedWithoutACopy() {
    SeriesBuffer buffer = textsOf(1, 2, 3);
    SeriesBuffer.Drained drained = buffer.drain(true, 0);
    assertSame(drained.points(), drained.outgoing().points, "the store leaves ordered points as they are");
    drained.points().sortAndDeduplicate(); // what the record sink does: nothing here
    assertEquals(3, buffer.copyUnsearchable().size());
    assertEquals(3 * BufferMemory.textPoint("up"), buffer.retainedBytes(), "counted as before");
    assertEquals(0, buffer.size(), "the buffer starts again empty");
  }

  @Test
  void textsOutOfOrderAreTrackedAsACopyTheStoreCannotReorder() {
    SeriesBuffer buffer = textsOf(3, 1, 2, 2);
    SeriesBuffer.Drained drained = buffer.drain(true, 0);
    assertNotSame(drained.points(), drained.outgoing().points);
    drained.points().sortAndDeduplicate();
    assertEquals(3, drained.points().size());
    assertEquals(java.util.Arrays.toString(new long[] {3, 1, 2, 2}),
        java.util.Arrays.toString(timestampsOf(buffer.copyUnsearchable())), "searches see the points as they came");
  }

  @Test
  void numericPointsAreTrackedPackedAsTheyCameUnlessARuleChangedThem() {
    SeriesBuffer buffer = bufferOf(3, 1, 2, 2);
    SeriesBuffer.Drained drained = buffer.drain(true, 0);
    assertSame(drained.packed(), drained.outgoing().packed, "nothing appends to drained points");
    assertEquals(null, drained.outgoing().points);
    Points sent = drained.points();
    assertNotSame(sent, drained.points(), "unpacked anew for each write");
    sent.sortAndDeduplicate(); // what the record sink does
    assertEquals(3, sent.size());
    buffer.written(drained, sent, sent, 0);
    assertEquals("[3, 1, 2, 2]", java.util.Arrays.toString(timestampsOf(buffer.copyUnsearchable())),
        "searches see the points as they came, still packed");
    assertEquals(drained.packed().heapBytes(), buffer.retainedBytes(), "the packed copy counted until searchable");

    SeriesBuffer ruled = bufferOf(1, 2, 3);
    SeriesBuffer.Drained taken = ruled.drain(true, 0);
    Points stored = Points.wrap(new long[] {1}, new double[] {20}, 1); // a rule's aggregate
    ruled.written(taken, taken.points(), stored, 0);
    assertEquals(stored, ruled.copyUnsearchable(), "searches see what the rule stored");
    assertEquals(1, taken.outgoing().packed.size(), "packed as well");
    long[] span = ruled.unsearchableSpan();
    assertEquals(1, span[0]);
    assertEquals(1, span[1]);
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
      SeriesBuffer buffer = new SeriesBuffer(ValueType.STRING, 0, new Object());
      for (int i = 0; i < expected[0]; i++) {
        buffer.arrive(0, SeriesBuffer.NO_SEGMENT, BufferMemory.textPoint("up"));
        buffer.points().addText(i, "up");
      }
      buffer.drain(false, 0);
      assertEquals(expected[1], buffer.points().timestampArray().length, expected[0] + " points drained");
      assertEquals(0, buffer.points().size());
    }
    long empty = new PackedPoints(ValueType.DOUBLE).heapBytes();
    for (int points : new int[] {3, 1000}) {
      long[] timestamps = new long[points];
      for (int i = 0; i < points; i++) {
        timestamps[i] = i;
      }
      SeriesBuffer numeric = bufferOf(timestamps);
      assertEquals(null, numeric.points(), "numeric points are packed");
      PackedPoints before = numeric.packed();
      long array = before.heapBytes() - empty;
      int filled = before.length();
      numeric.drain(false, 0);
      assertEquals(0, numeric.size());
      assertSame(before, numeric.packed(), "emptied in place");
      assertEquals(array <= SeriesBuffer.RESTART_PACKED_BYTES ? array : Math.min(filled, SeriesBuffer.RESTART_PACKED_BYTES),
          numeric.packed().heapBytes() - empty, points + " points drained");
    }
  }

  @Test
  void packedPointsComeOutAsTheyCameAndGoBackInFrontAfterAFailedWrite() {
    SeriesBuffer buffer = bufferOf(5, 3, 4);
    SeriesBuffer.Drained drained = buffer.drain(false, 0);
    assertEquals("[5, 3, 4]", java.util.Arrays.toString(timestampsOf(drained.points())));
    assertEquals(40.0, drained.points().value(2));
    buffer.arrive(0, SeriesBuffer.NO_SEGMENT, 0);
    buffer.packed().add(6, 60.5);
    buffer.countPacked();
    buffer.restore(drained);
    Points back = buffer.copy();
    assertEquals("[5, 3, 4, 6]", java.util.Arrays.toString(timestampsOf(back)));
    assertEquals(60.5, back.value(3));
    assertEquals(buffer.packed().capacityBytes() - buffer.keptBytes(), buffer.retainedBytes(),
        "the merged array, beyond what the buffer kept");
    assertEquals(3, buffer.unsearchableSpan()[0]);
    assertEquals(6, buffer.unsearchableSpan()[1]);
    buffer.replace(back.slice(0, 2));
    assertEquals("[5, 3]", java.util.Arrays.toString(timestampsOf(buffer.copy())));
  }

  /**
   * A gauge's packed points count what their array holds, a few bytes each rather than the 24 of a
   * point before packing, and the array a drained buffer keeps is the series' own memory: writing
   * the buffer out does not free it, so the flusher must not count it as room it can make.
   */
  @Test
  void packedPointsCountTheirArrayBeyondWhatTheBufferKept() {
    long[] steady = new long[3000];
    SeriesBuffer buffer = new SeriesBuffer(ValueType.DOUBLE, 0, new Object());
    for (int i = 0; i < steady.length; i++) {
      steady[i] = 1_700_000_000_000L + 1000L * i; // a gauge of one decimal, once a second
      buffer.arrive(0, SeriesBuffer.NO_SEGMENT, 0);
      buffer.packed().add(steady[i], 40 + (i * 7 % 13) / 10.0);
      buffer.countPacked();
    }
    assertEquals(buffer.packed().capacityBytes(), buffer.retainedBytes(), "a new buffer kept nothing");
    assertTrue(buffer.retainedBytes() < 4 * steady.length, buffer.retainedBytes() + " bytes for 3,000 points");

    SeriesBuffer.Drained drained = buffer.drain(false, 0);
    assertEquals(drained.packed().heapBytes(), drained.bytes(), "the chunk counts its exact copy");
    assertEquals(SeriesBuffer.RESTART_PACKED_BYTES, buffer.keptBytes());
    assertEquals(0, buffer.retainedBytes(), "the kept array is the series' memory");

    for (int i = 0; i < 10; i++) {
      buffer.arrive(0, SeriesBuffer.NO_SEGMENT, 0);
      buffer.packed().add(steady[i], i);
      assertEquals(0, buffer.countPacked(), "room in the kept array");
    }
    long grown = 0;
    for (int i = 10; i < steady.length; i++) {
      buffer.arrive(0, SeriesBuffer.NO_SEGMENT, 0);
      buffer.packed().add(steady[i], i);
      grown += buffer.countPacked();
    }
    assertEquals(buffer.packed().capacityBytes() - SeriesBuffer.RESTART_PACKED_BYTES, grown);
    assertEquals(grown, buffer.retainedBytes());
  }

  private static long[] timestampsOf(Points points) {
    return java.util.Arrays.copyOf(points.timestampArray(), points.size());
  }
}
