package io.chronix.ingest.pipeline;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Batches kept for the next requests: a request of ten thousand series allocated some 700 kB of
 * batch arrays and series table, about half of what the write path allocated, and the collections
 * this caused copied the buffers' young points again each time. Only a few batches of moderate
 * size are kept, so the pool holds a few megabytes at most, however many threads take from it.
 */
public final class BatchPool {

  /** Batches that grew beyond this many points are left to the collector. */
  static final int KEPT_POINTS = 1 << 16;
  private final ArrayBlockingQueue<PointBatch> idle = new ArrayBlockingQueue<>(4);

  /** An empty batch with room for about {@code points} points. */
  public PointBatch take(int points) {
    PointBatch batch = idle.poll();
    if (batch == null) {
      return new PointBatch(points);
    }
    batch.reserve(points);
    return batch;
  }

  /** Gives a batch back once nothing refers to it any more. */
  public void give(PointBatch batch) {
    if (batch.capacity() <= KEPT_POINTS) {
      batch.clear();
      idle.offer(batch);
    }
  }
}
