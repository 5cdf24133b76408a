package io.chronix.core.record;

import io.chronix.core.codec.ChunkBlocks;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.KeptBlocks;
import io.chronix.core.series.Points;
import java.util.function.IntFunction;

/**
 * The statistics of a record's points within a time range, and the timestamps of the first and
 * last of them, read from the blob without building its points where the blob allows: of a blob
 * in order, the blocks wholly inside the range give their values alone, and only the (at most two)
 * blocks cut by the range's ends are decoded with their timestamps. A `max` over a few hours of a
 * day-long record spent a third of its time decoding timestamps it did not need and joining
 * blocks into points. Each inner block's figures can be kept ({@link BlockStats}) for the next
 * query that covers it. The figures are those of decoding the range and taking
 * {@link RecordStats#of(Points)} over it, but for the sum: the cut blocks' values are summed one
 * by one and each inner block adds its own sum, whether kept or not (so the answer does not
 * depend on what is kept), which may differ in the last bits from one running sum, as the sums
 * of several records added do.
 */
public record RangeStats(RecordStats stats, long firstNanos, long lastNanos) {

  /**
   * Over the points of {@code blob} with {@code fromInclusive <= timestamp < toExclusive}
   * (nanoseconds), or null when none is in the range.
   *
   * @throws io.chronix.core.codec.CorruptBlobException where the blob is damaged or beyond the limits
   */
  public static RangeStats of(byte[] blob, ChunkCodec.Limits limits, long fromInclusive, long toExclusive) {
    return of(blob, limits, fromInclusive, toExclusive, null);
  }

  /**
   * As {@link #of(byte[], ChunkCodec.Limits, long, long)}, with the figures of the blob's inner
   * blocks taken from those kept for it where they are there, and kept there where they are not.
   *
   * @param keptFor this blob's block figures, given its number of blocks (asked only where the
   *     range holds a block whole); null to keep none
   * @throws IllegalArgumentException where the figures given are of another number of blocks
   */
  public static RangeStats of(byte[] blob, ChunkCodec.Limits limits, long fromInclusive, long toExclusive,
      IntFunction<BlockStats> keptFor) {
    return of(blob, limits, fromInclusive, toExclusive, keptFor, KeptBlocks.NONE);
  }

  /**
   * As {@link #of(byte[], ChunkCodec.Limits, long, long, IntFunction)}, with the (at most two)
   * blocks the range cuts taken decoded from {@code keptEnds} where it holds them, and decoded whole
   * and offered to it where it does not. A dashboard's next refresh cuts the same blocks at other
   * points, and the query mix asks the same windows round after round: decoding the two ends was
   * two thirds of a one-hour {@code max}'s statistics, 5.3 % of its CPU (perf, docs/benchmarks.md).
   */
  public static RangeStats of(byte[] blob, ChunkCodec.Limits limits, long fromInclusive, long toExclusive,
      IntFunction<BlockStats> keptFor, KeptBlocks keptEnds) {
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
    Ends ends = new Ends();
    addEnd(blocks, first, fromInclusive, toExclusive, keptEnds, running, ends);
    if (last > first) {
      BlockStats kept = keptFor == null || last - first < 2 ? null : keptFor.apply(blocks.count());
      if (kept != null && kept.blocks() != blocks.count()) {
        throw new IllegalArgumentException("block figures of " + kept.blocks() + " blocks for a blob of " + blocks.count());
      }
      // blocks between the two ends lie wholly in the range: each starts at or after the head's
      // successor's first timestamp (>= from) and ends by its successor's first (< to)
      for (int b = first + 1; b < last; b++) {
        addInner(blocks, b, kept, running);
        ends.seen(blocks.firstTimestamp(b));
      }
      addEnd(blocks, last, fromInclusive, toExclusive, keptEnds, running, ends); // its first point is in range
    }
    return running.count() == 0 ? null : new RangeStats(running.stats(), ends.first, ends.last);
  }

  /** The first and last timestamps of the range's points met so far, in order. */
  private static final class Ends {
    long first = Long.MIN_VALUE;
    long last = Long.MIN_VALUE;

    void seen(long firstOfPart) {
      if (first == Long.MIN_VALUE) {
        first = firstOfPart;
      }
    }

    void seen(long firstOfPart, long lastOfPart) {
      seen(firstOfPart);
      last = lastOfPart;
    }
  }

  /** Adds the points in range of block {@code b}, which the range cuts (or may cut). */
  private static void addEnd(ChunkBlocks blocks, int b, long fromInclusive, long toExclusive, KeptBlocks kept,
      RecordStats.Running running, Ends ends) {
    KeptBlocks.DecodedBlock whole = kept == KeptBlocks.NONE ? null : blocks.decodedWhole(b, kept);
    if (whole == null) {
      Points cut = blocks.decode(b, true, fromInclusive, toExclusive);
      running.add(cut.valueArray(), 0, cut.size());
      if (!cut.isEmpty()) {
        ends.seen(cut.timestamp(0), cut.timestamp(cut.size() - 1));
      }
      return;
    }
    long[] timestamps = whole.timestamps();
    int from = Points.lowerBound(timestamps, 0, timestamps.length, fromInclusive);
    int to = Points.lowerBound(timestamps, from, timestamps.length, toExclusive);
    running.add(whole.values(), from, to);
    if (to > from) {
      ends.seen(timestamps[from], timestamps[to - 1]);
    }
  }

  /** Adds inner block {@code b} by its figures, kept or taken now (and then kept where they can be). */
  private static void addInner(ChunkBlocks blocks, int b, BlockStats kept, RecordStats.Running running) {
    if (kept != null && kept.knows(b)) {
      kept.addTo(running, b, blocks.size(b));
      return;
    }
    double[] numbers = blocks.numbers(b);
    RecordStats.Running block = new RecordStats.Running();
    block.add(numbers, 0, numbers.length);
    if (kept != null) {
      kept.keep(b, block);
    }
    running.addSummary(block);
  }

  /** Over points already decoded and clipped to the range, or null when there are none. */
  public static RangeStats of(Points clipped) {
    if (clipped.isEmpty()) {
      return null;
    }
    return new RangeStats(RecordStats.of(clipped), clipped.timestamp(0), clipped.timestamp(clipped.size() - 1));
  }
}
