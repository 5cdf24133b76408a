package io.chronix.core.codec;

import io.chronix.core.series.Points;

/**
 * The blocks of a version 3 blob body ({@link ChunkCodec}), located and checked but not decoded:
 * each can be decoded alone, with its timestamps or, for numbers, its values only. A query's
 * statistics over a range read the blocks wholly inside it by their values alone
 * ({@code io.chronix.core.record.RangeStats}): their timestamps were a third of such a query.
 */
public final class ChunkBlocks {

  private final ByteReader in;
  private final int n;
  private final boolean inOrder;
  private final int perBlock;
  private final int count;
  private final int[] timeStarts;
  private final int[] timeLengths;
  private final int[] valueStarts;
  private final int[] valueLengths;
  /** Each block's first timestamp, read on first use; only meaningful in order. */
  private long[] firsts;

  private ChunkBlocks(ByteReader in, int n, boolean inOrder, int perBlock, int[] timeStarts, int[] timeLengths,
      int[] valueStarts, int[] valueLengths) {
    this.in = in;
    this.n = n;
    this.inOrder = inOrder;
    this.perBlock = perBlock;
    this.count = timeStarts.length;
    this.timeStarts = timeStarts;
    this.timeLengths = timeLengths;
    this.valueStarts = valueStarts;
    this.valueLengths = valueLengths;
  }

  /** The blocks of a version 3 body after its point count {@code n}; {@code in} is left after the body. */
  static ChunkBlocks read(ByteReader in, int n) {
    boolean inOrder = (in.readByte() & ChunkCodec.IN_ORDER) != 0;
    long perBlock = in.readVarLong();
    if (perBlock < 1 || perBlock > Integer.MAX_VALUE) {
      throw new CorruptBlobException("blocks of " + perBlock + " points");
    }
    int blocks = ChunkCodec.blockCount(n, perBlock);
    if (blocks > in.remaining()) { // a block takes bytes of index and of body
      throw new CorruptBlobException(blocks + " blocks in a body of " + in.remaining() + " bytes");
    }
    int[] timeLengths = new int[blocks];
    int[] valueLengths = new int[blocks];
    long total = 0;
    long valueTotal = 0;
    for (int b = 0; b < blocks; b++) {
      long times = in.readVarLong();
      long values = in.readVarLong();
      total += times + values;
      valueTotal += values;
      if (times < 1 || values < 0 || total > in.remaining()) {
        throw new CorruptBlobException("block " + b + " of " + times + " + " + values + " bytes runs past the body");
      }
      timeLengths[b] = (int) times;
      valueLengths[b] = (int) values;
    }
    if (total != in.remaining()) {
      throw new CorruptBlobException((in.remaining() - total) + " bytes after the last block");
    }
    int[] timeStarts = new int[blocks];
    int[] valueStarts = new int[blocks];
    for (int b = 0, times = 0, values = (int) (total - valueTotal); b < blocks; b++) {
      timeStarts[b] = times;
      valueStarts[b] = values;
      times += timeLengths[b];
      values += valueLengths[b];
    }
    ChunkBlocks located = new ChunkBlocks(in.region(0, (int) total), n, inOrder, (int) perBlock, timeStarts,
        timeLengths, valueStarts, valueLengths);
    in.skip((int) total);
    return located;
  }

  public int count() {
    return count;
  }

  /** Whether the blob's timestamps are in order (as the server writes them). */
  public boolean inOrder() {
    return inOrder;
  }

  /** The points of block {@code b}. */
  public int size(int b) {
    return (int) Math.min(perBlock, n - (long) b * perBlock);
  }

  /** The first timestamp of block {@code b}, where its compaction starts (no block is decoded). */
  public long firstTimestamp(int b) {
    if (firsts == null) {
      firsts = new long[count];
      for (int i = 0; i < count; i++) {
        firsts[i] = in.peekZigZag(timeStarts[i]);
      }
    }
    return firsts[b];
  }

  /**
   * In order: the first block that may hold a timestamp at or after {@code fromInclusive} (its
   * successor starts there or later), or {@link #count} when none does. A block holds timestamps
   * from its first to its successor's first.
   */
  public int firstReaching(long fromInclusive) {
    for (int b = 0; b < count; b++) {
      if (b == count - 1 || firstTimestamp(b + 1) >= fromInclusive) {
        return b;
      }
    }
    return count;
  }

  /** In order: the last block that starts before {@code toExclusive}, or -1. */
  public int lastBefore(long toExclusive) {
    for (int b = count - 1; b >= 0; b--) {
      if (firstTimestamp(b) < toExclusive) {
        return b;
      }
    }
    return -1;
  }

  /**
   * In order: whether a timestamp lies in [{@code fromInclusive}, {@code toExclusive}), told from
   * the blocks' first timestamps where they tell it, else from one block's timestamps; no value is
   * read.
   */
  public boolean holdsTimestampIn(long fromInclusive, long toExclusive) {
    int first = firstReaching(fromInclusive);
    int last = lastBefore(toExclusive);
    if (first >= count || first > last) {
      return false;
    }
    if (last > first || firstTimestamp(first) >= fromInclusive) {
      // a block after the one reaching the range starts inside it, or that block itself does
      return true;
    }
    long[] timestamps = new long[size(first)];
    decodeTimestamps(first, timestamps, 0);
    int at = Points.lowerBound(timestamps, 0, timestamps.length, fromInclusive);
    return at < timestamps.length && timestamps[at] < toExclusive;
  }

  /** Block {@code b}'s points, cut to the range when {@code cut} (the blob is in order). */
  public Points decode(int b, boolean cut, long fromInclusive, long toExclusive) {
    int size = size(b);
    long[] timestamps = new long[size];
    decodeTimestamps(b, timestamps, 0);
    return ChunkCodec.values(in.region(valueStarts[b], valueLengths[b]), timestamps, size, cut, fromInclusive,
        toExclusive);
  }

  /**
   * In order: the timestamps in [{@code fromInclusive}, {@code toExclusive}), ascending, read from
   * the blocks that reach into the range and without their values.
   */
  public long[] timestampsIn(long fromInclusive, long toExclusive) {
    int first = firstReaching(fromInclusive);
    int last = lastBefore(toExclusive);
    if (first > last) {
      return new long[0];
    }
    long total = 0;
    for (int b = first; b <= last; b++) {
      total += size(b);
    }
    long[] all = new long[(int) total];
    int filled = 0;
    for (int b = first; b <= last; b++) {
      decodeTimestamps(b, all, filled);
      filled += size(b);
    }
    int from = Points.lowerBound(all, 0, filled, fromInclusive);
    int to = Points.lowerBound(all, from, filled, toExclusive);
    return from == 0 && to == filled ? all : java.util.Arrays.copyOfRange(all, from, to);
  }

  /**
   * Block {@code b}'s points into {@code timestamps[offset]} and {@code values[offset]} onwards,
   * all of them; false where its values are not doubles (then the arrays may hold its timestamps
   * but its values are unread).
   */
  boolean decodeDoublesInto(int b, long[] timestamps, double[] values, int offset) {
    decodeTimestamps(b, timestamps, offset);
    return decodeDoubles(b, size(b), values, offset);
  }

  /**
   * Block {@code b} decoded whole, taken from {@code kept} where it holds the block and offered to it
   * where it does not; null where the block's values are not doubles.
   */
  public KeptBlocks.DecodedBlock decodedWhole(int b, KeptBlocks kept) {
    int size = size(b);
    KeptBlocks.DecodedBlock known = kept.get(b);
    if (known != null && known.size() == size) {
      return known;
    }
    long[] timestamps = new long[size];
    double[] values = new double[size];
    if (!decodeDoublesInto(b, timestamps, values, 0)) {
      return null;
    }
    KeptBlocks.DecodedBlock decoded = new KeptBlocks.DecodedBlock(timestamps, values);
    kept.keep(b, decoded);
    return decoded;
  }

  /**
   * Block {@code b}'s points before {@code toExclusive} (the blob in order) into the arrays from
   * {@code offset}: all its timestamps, and its values only as far as they are kept (they are read
   * in sequence, so the ones after the range need not be). The number of points kept, or -1 where
   * its values are not doubles. The arrays need room for the whole block.
   */
  int decodeDoublesBefore(int b, long toExclusive, long[] timestamps, double[] values, int offset) {
    decodeTimestamps(b, timestamps, offset);
    int kept = Points.lowerBound(timestamps, offset, offset + size(b), toExclusive) - offset;
    return decodeDoubles(b, kept, values, offset) ? kept : -1;
  }

  private void decodeTimestamps(int b, long[] into, int offset) {
    int size = size(b);
    ByteReader times = in.region(timeStarts[b], timeLengths[b]);
    DateDeltaCompaction.decode(times, size, into, offset);
    if (times.hasRemaining()) {
      throw new CorruptBlobException(times.remaining() + " bytes after a block's " + size + " timestamps");
    }
  }

  /** The first {@code count} of block {@code b}'s values as doubles; false where they are not doubles. */
  private boolean decodeDoubles(int b, int count, double[] into, int offset) {
    int size = size(b);
    ByteReader numbers = in.region(valueStarts[b], valueLengths[b]);
    if (!ValueEncoding.decodeDoublesPrefix(numbers, size, count, into, offset)) {
      return false;
    }
    if (count == size && numbers.hasRemaining()) {
      throw new CorruptBlobException(numbers.remaining() + " trailing bytes after " + size + " values");
    }
    return true;
  }

  /** Whether the values are numbers or booleans (not strings or arrays), by the first block's mode. */
  public boolean numeric() {
    return count > 0 && ValueEncoding.isNumeric(in.region(valueStarts[0], valueLengths[0]).readByte());
  }

  /**
   * Block {@code b}'s values as doubles without reading its timestamps (longs converted, booleans
   * as 0 and 1, as {@link Points#valueArray} has them), or null for strings and arrays.
   */
  public double[] numbers(int b) {
    ByteReader values = in.region(valueStarts[b], valueLengths[b]);
    double[] numbers = ValueEncoding.decodeNumbers(values, size(b));
    if (numbers != null && values.hasRemaining()) {
      throw new CorruptBlobException(values.remaining() + " trailing bytes after a block's " + size(b) + " values");
    }
    return numbers;
  }
}
