package io.chronix.ingest.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The locks of the series buffers: a fixed set of stripes, each guarding the buffers of the keys
 * whose hash picks it. A batch takes each stripe once for all of its series there
 * ({@link #group}): with a lock a series, a request of ten thousand series spent a third of its
 * time on them (each lock a locked instruction that stops the core from fetching the next
 * buffers while it waits for this one's cache misses), and two request threads appending to the
 * same series took each buffer's cache line from each other series by series.
 */
final class BufferLocks {

  static final int STRIPES = 64;
  private static final int SHIFT = Integer.SIZE - Integer.numberOfTrailingZeros(STRIPES);
  /** Ints between two stripes' busy marks: 64 bytes, a cache line. */
  private static final int BUSY_SPACING = 16;
  private static final VarHandle BUSY = MethodHandles.arrayElementVarHandle(int[].class);

  private final Object[] stripes = new Object[STRIPES];
  /**
   * Per stripe, whether a batch is inside it (a hint, a slot of its own cache line each): two
   * threads with batches of the same series that met at a stripe went on in step, the one behind
   * parked at every stripe the other held (a fifth of a second of a 1.8 s stream). A batch passes
   * over a busy stripe and comes back to it after the others.
   */
  private final int[] busy = new int[STRIPES * BUSY_SPACING];

  BufferLocks() {
    for (int i = 0; i < STRIPES; i++) {
      // 128 bytes each, so that two threads holding neighbouring stripes do not share a cache line
      stripes[i] = new long[16];
    }
  }

  /** The lock of the buffers of keys with this hash. */
  Object of(int keyHash) {
    return stripes[stripeOf(keyHash)];
  }

  Object stripe(int index) {
    return stripes[index];
  }

  /**
   * Whether a batch seems to be inside the stripe. Opaque reads and writes: plain moves on x86, no
   * fence, where a volatile write would cost the locked instruction the stripes save.
   */
  boolean isBusy(int stripe) {
    return (int) BUSY.getOpaque(busy, stripe * BUSY_SPACING) != 0;
  }

  /** Marks a stripe as held by a batch, from inside its lock until just before leaving it. */
  void markBusy(int stripe, boolean held) {
    BUSY.setOpaque(busy, stripe * BUSY_SPACING, held ? 1 : 0);
  }

  static int stripeOf(int keyHash) {
    return ((keyHash ^ (keyHash >>> 16)) * 0x9E3779B9) >>> SHIFT;
  }

  /**
   * The batch's series by stripe. Each batch starts at a random stripe, so that two threads with
   * batches of the same series seldom walk the stripes in step, one waiting at each for the other.
   */
  Groups group(SeriesBatch batch) {
    int seriesCount = batch.seriesCount();
    int[] stripeOf = new int[seriesCount];
    int[] starts = new int[STRIPES + 1];
    for (int s = 0; s < seriesCount; s++) {
      int stripe = stripeOf(batch.handle(s).hash());
      stripeOf[s] = stripe;
      starts[stripe + 1]++;
    }
    for (int i = 0; i < STRIPES; i++) {
      starts[i + 1] += starts[i];
    }
    int[] series = new int[seriesCount];
    int[] filled = java.util.Arrays.copyOf(starts, STRIPES);
    for (int s = 0; s < seriesCount; s++) {
      series[filled[stripeOf[s]]++] = s;
    }
    int first = ThreadLocalRandom.current().nextInt(STRIPES);
    int[] used = new int[Math.min(STRIPES, seriesCount)];
    int count = 0;
    for (int i = 0; i < STRIPES; i++) {
      int stripe = (first + i) & (STRIPES - 1);
      if (starts[stripe + 1] > starts[stripe]) {
        used[count++] = stripe;
      }
    }
    return new Groups(series, starts, used, count);
  }

  /** A batch's series grouped by stripe: group {@code g} holds {@code series(start(g))} to {@code series(end(g) - 1)}. */
  final class Groups {
    private final int[] series;
    private final int[] starts;
    private final int[] groupStripes;
    private final int count;

    private Groups(int[] series, int[] starts, int[] groupStripes, int count) {
      this.series = series;
      this.starts = starts;
      this.groupStripes = groupStripes;
      this.count = count;
    }

    int count() {
      return count;
    }

    int stripe(int group) {
      return groupStripes[group];
    }

    Object lock(int group) {
      return stripes[groupStripes[group]];
    }

    int start(int group) {
      return starts[groupStripes[group]];
    }

    int end(int group) {
      return starts[groupStripes[group] + 1];
    }

    /** The batch's place of a series. */
    int series(int index) {
      return series[index];
    }
  }
}
