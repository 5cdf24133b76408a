package io.chronix.core.codec;

/**
 * Decoded blocks of one blob that its reader keeps for the next decode of a range over them: a
 * dashboard asks the same window, or one moved by a refresh, again and again, and decoding the
 * blocks inside it was a third of a query's own work over an hour of a record (docs/benchmarks.md).
 *
 * <p>{@link ChunkCodec#decode(byte[], ChunkCodec.Limits, long, long, KeptBlocks)} offers the blocks of doubles
 * that lie wholly inside the range it decodes, and copies a block it is given instead of decoding
 * it; the blocks at the range's ends it decodes every time, as far as the range reaches, since a
 * query over a few points of many series would otherwise keep two whole blocks a series.
 * Statistics over a range ({@code io.chronix.core.record.RangeStats}) keep the ends too, decoded
 * whole: they reduce them in place, and a dashboard's next refresh cuts the same blocks. A keeper
 * may keep what it likes, or nothing ({@link #NONE}).
 */
public interface KeptBlocks {

  /** Keeps nothing. */
  KeptBlocks NONE = new KeptBlocks() {
    @Override
    public DecodedBlock get(int block) {
      return null;
    }

    @Override
    public void keep(int block, DecodedBlock points) {
    }
  };

  /** Block {@code block}'s points as kept, or null; its arrays are read, never changed. */
  DecodedBlock get(int block);

  /** Offers block {@code block}'s points as just decoded; nobody changes the arrays afterwards. */
  void keep(int block, DecodedBlock points);

  /** A block's timestamps (as stored, nanoseconds) and values, all of them, in the blob's order. */
  record DecodedBlock(long[] timestamps, double[] values) {

    /** Besides the arrays' contents: the record and the two arrays' headers. */
    private static final int OVERHEAD = 16 + 2 * 16;

    public DecodedBlock {
      if (timestamps.length != values.length) {
        throw new IllegalArgumentException(timestamps.length + " timestamps and " + values.length + " values");
      }
    }

    public int size() {
      return timestamps.length;
    }

    /** What it takes of the heap, about. */
    public long bytes() {
      return OVERHEAD + 16L * timestamps.length;
    }
  }
}
