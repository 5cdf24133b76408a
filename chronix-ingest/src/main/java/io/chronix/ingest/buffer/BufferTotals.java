package io.chronix.ingest.buffer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the buffers hold in all: the points accepted and not yet written to the store (those on
 * their way included), the heap they, their keys and the copies of outgoing chunks hold as
 * {@link BufferMemory} counts it (what buffer.maxBytes bounds), and the part of that heap the
 * active series hold empty. The write path adds a batch's share once: two request threads adding
 * to these once a point made their cache line travel between the cores.
 */
final class BufferTotals {

  private final AtomicLong points = new AtomicLong();
  private final AtomicLong memory = new AtomicLong();
  private final AtomicLong seriesMemory = new AtomicLong();

  void addPoints(long delta) {
    if (delta != 0) {
      points.addAndGet(delta);
    }
  }

  void addMemory(long delta) {
    if (delta != 0) {
      memory.addAndGet(delta);
    }
  }

  /** A series' key and empty buffer came (positive) or went: in the memory and in its fixed part. */
  void addSeries(long bytes) {
    memory.addAndGet(bytes);
    seriesMemory.addAndGet(bytes);
  }

  long points() {
    return points.get();
  }

  long memory() {
    return memory.get();
  }

  long seriesMemory() {
    return seriesMemory.get();
  }
}
