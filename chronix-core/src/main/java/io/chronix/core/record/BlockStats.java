package io.chronix.core.record;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The statistics of a blob's blocks, kept beside the blob as {@link RangeStats} decodes them, so
 * that a block wholly inside the range of a later query is answered without decoding it again.
 * A dashboard asks the same windows at every refresh: a {@code max} over four hours of a P4 series
 * decoded the values of about 27 blocks each time, to read two of them at the window's ends.
 *
 * <p>One instance belongs to one blob (its number of blocks is checked on use). Queries on several
 * threads fill it: a block's figures are written before its mark, and read only after the mark is
 * seen, so a reader sees either nothing or the whole block. Two threads may compute the same
 * block; they write the same figures.
 */
public final class BlockStats {

  /** What one block costs here besides the object: five doubles and a mark. */
  public static final int BYTES_A_BLOCK = 5 * Double.BYTES + Integer.BYTES;

  private static final int UNKNOWN = 0;
  private static final int KNOWN = 1;
  /** Known, and every value is NaN: the block has no min, max or sum. */
  private static final int KNOWN_WITHOUT_NUMBERS = 2;

  private final double[] min;
  private final double[] max;
  private final double[] sum;
  private final double[] first;
  private final double[] last;
  private final AtomicIntegerArray marks;

  /** Nothing known yet of {@code blocks} blocks. */
  public BlockStats(int blocks) {
    if (blocks < 0) {
      throw new IllegalArgumentException("negative block count: " + blocks);
    }
    min = new double[blocks];
    max = new double[blocks];
    sum = new double[blocks];
    first = new double[blocks];
    last = new double[blocks];
    marks = new AtomicIntegerArray(blocks);
  }

  public int blocks() {
    return marks.length();
  }

  /** Whether block {@code b}'s figures are kept. */
  public boolean knows(int b) {
    return marks.get(b) != UNKNOWN;
  }

  /** How many blocks' figures are kept. */
  public int known() {
    int known = 0;
    for (int b = 0; b < marks.length(); b++) {
      known += knows(b) ? 1 : 0;
    }
    return known;
  }

  /** Keeps block {@code b}'s figures, taken over all of its {@code size > 0} values. */
  void keep(int b, RecordStats.Running block) {
    RecordStats stats = block.stats();
    min[b] = stats.min();
    max[b] = stats.max();
    sum[b] = stats.sum();
    first[b] = stats.first();
    last[b] = stats.last();
    marks.set(b, block.anyNumber() ? KNOWN : KNOWN_WITHOUT_NUMBERS); // after the figures: publishes them
  }

  /** Adds block {@code b}'s kept figures, of {@code size} values, to {@code running}; the block must be known. */
  void addTo(RecordStats.Running running, int b, int size) {
    int mark = marks.get(b); // before the figures: sees what keep wrote
    if (mark == UNKNOWN) {
      throw new IllegalStateException("block " + b + " is not known");
    }
    running.addSummary(size, mark == KNOWN, min[b], max[b], sum[b], first[b], last[b]);
  }
}
