package io.chronix.ingest.pipeline;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Batches kept for the next requests: a request of ten thousand series allocated some 700 kB of
 * batch arrays and series table, about half of what the write path allocated, and the collections
 * this caused copied the buffers' young points again each time. Only a few batches of moderate
 * size are kept (20 bytes a point and at most 768 kB of series table: under 14 MB for the four),
 * however many threads take from it. Moderate includes a request of 10,000 lines of one field
 * each, which the line-protocol endpoint reserves from its length at some 65,000 points.
 */
public final class BatchPool {

  /** Batches that grew beyond this many points are left to the collector. */
  static final int KEPT_POINTS = 1 << 17;
  /** Body bytes a point is taken to need when a request's batch is taken, before parsing. */
  static final int BODY_BYTES_PER_POINT = 40;
  private final ArrayBlockingQueue<PointBatch> idle = new ArrayBlockingQueue<>(4);

  /**
   * An empty batch for a request body of {@code bodyBytes} on the wire (negative when unknown):
   * room for a point every {@value #BODY_BYTES_PER_POINT} bytes, within bounds; a parser that
   * knows its protocol's lines better reserves more.
   */
  public PointBatch forBody(long bodyBytes) {
    return take(Math.max(64, (int) Math.min(1 << 20, bodyBytes / BODY_BYTES_PER_POINT)));
  }

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
