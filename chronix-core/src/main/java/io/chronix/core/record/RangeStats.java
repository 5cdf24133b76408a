package io.chronix.core.record;

import io.chronix.core.codec.ChunkBlocks;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;

/**
 * The statistics of a record's points within a time range, and the timestamps of the first and
 * last of them, read from the blob without building its points where the blob allows: of a blob
 * in order, the blocks wholly inside the range give their values alone, and only the (at most two)
 * blocks cut by the range's ends are decoded with their timestamps. A `max` over a few hours of a
 * day-long record spent a third of its time decoding timestamps it did not need and joining
 * blocks into points. The figures are those of decoding the range and taking
 * {@link RecordStats#of(Points)} over it, the sum included.
 */
public record RangeStats(RecordStats stats, long firstNanos, long lastNanos) {

  /**
   * Over the points of {@code blob} with {@code fromInclusive <= timestamp < toExclusive}
   * (nanoseconds), or null when none is in the range.
   *
   * @throws io.chronix.core.codec.CorruptBlobException where the blob is damaged or beyond the limits
   */
  public static RangeStats of(byte[] blob, ChunkCodec.Limits limits, long fromInclusive, long toExclusive) {
    ChunkBlocks blocks = ChunkCodec.blocks(blob, limits);
    if (blocks == null || !blocks.inOrder() || !blocks.numeric()) {
      return of(ChunkCodec.decode(blob, limits, fromInclusive, toExclusive).clip(fromInclusive, toExclusive));
    }
    int first = blocks.firstReaching(fromInclusive);
    int last = blocks.lastBefore(toExclusive);
    if (first > last) {
      return null;
    }
    RecordStats.Running running = new RecordStats.Running();
    Points head = blocks.decode(first, true, fromInclusive, toExclusive);
    running.add(head.valueArray(), 0, head.size());
    long firstNanos = head.isEmpty() ? Long.MIN_VALUE : head.timestamp(0);
    long lastNanos = head.isEmpty() ? Long.MIN_VALUE : head.timestamp(head.size() - 1);
    if (last > first) {
      // blocks between the two ends lie wholly in the range: each starts at or after the head's
      // successor's first timestamp (>= from) and ends by its successor's first (< to)
      for (int b = first + 1; b < last; b++) {
        double[] numbers = blocks.numbers(b);
        running.add(numbers, 0, numbers.length);
        if (firstNanos == Long.MIN_VALUE) {
          firstNanos = blocks.firstTimestamp(b);
        }
      }
      Points tail = blocks.decode(last, true, fromInclusive, toExclusive); // its first point is in range
      running.add(tail.valueArray(), 0, tail.size());
      if (firstNanos == Long.MIN_VALUE) {
        firstNanos = tail.timestamp(0);
      }
      lastNanos = tail.timestamp(tail.size() - 1);
    }
    return running.count() == 0 ? null : new RangeStats(running.stats(), firstNanos, lastNanos);
  }

  /** Over points already decoded and clipped to the range, or null when there are none. */
  public static RangeStats of(Points clipped) {
    if (clipped.isEmpty()) {
      return null;
    }
    return new RangeStats(RecordStats.of(clipped), clipped.timestamp(0), clipped.timestamp(clipped.size() - 1));
  }
}
