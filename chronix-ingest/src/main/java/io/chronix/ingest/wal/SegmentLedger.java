package io.chronix.ingest.wal;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The one owner of write-ahead-log segment lifetime: which segments still hold points that are
 * not yet committed to the store, and when a segment may be deleted.
 *
 * <p>A point's segment stays pinned from the moment its batch is logged until a store commit that
 * began after the point's record was written: while it sits in a buffer (the buffer holds one pin
 * for its oldest segment), while its chunk is on its way to the store (the chunk takes the
 * buffer's pin over, without letting go), and while the written record waits for a commit. Only
 * {@link #committed} releases pins, so no drain, write or flush running at the same time as a
 * checkpoint can make a needed segment look free.
 *
 * <p>Locks: the pins are guarded by this object's monitor. Logging a batch and putting it into the
 * buffers happens under the shared side of {@link #logging}; a checkpoint decides under the
 * exclusive side, so no batch can be in a segment without yet being pinned while it decides.
 */
public final class SegmentLedger {

  /** No segment: points that no log holds (tests, tools) pin nothing. */
  public static final long NONE = Long.MAX_VALUE;

  /** Logging and buffering one batch. */
  @FunctionalInterface
  public interface Logging<T> {
    T run() throws IOException;
  }

  /** A store commit. */
  @FunctionalInterface
  public interface Commit {
    void run() throws IOException;
  }

  private final ReentrantReadWriteLock logging = new ReentrantReadWriteLock();
  private final TreeMap<Long, Integer> pins = new TreeMap<>();
  /** Segments of written records awaiting a commit, with the ticket of their write. */
  private final ArrayDeque<long[]> awaitingCommit = new ArrayDeque<>();
  private long writes;

  /** Runs the logging of a batch and its entry into the buffers, which pin its segment. */
  public <T> T logging(Logging<T> work) throws IOException {
    logging.readLock().lock();
    try {
      return work.run();
    } finally {
      logging.readLock().unlock();
    }
  }

  /** A buffer took the points of a segment (its oldest) and holds it until its chunk is committed. */
  public synchronized void pin(long segment) {
    if (segment != NONE) {
      pins.merge(segment, 1, Integer::sum);
    }
  }

  /** A pin given up without a commit: the points were dropped (replay found them stored). */
  public synchronized void unpin(long segment) {
    if (segment == NONE) {
      return;
    }
    Integer count = pins.get(segment);
    if (count == null) {
      throw new IllegalStateException("segment " + segment + " is not pinned");
    }
    if (count == 1) {
      pins.remove(segment);
    } else {
      pins.put(segment, count - 1);
    }
  }

  /** The record of a chunk pinning this segment is written; the pin lasts until the next commit. */
  public synchronized void written(long segment) {
    if (segment != NONE) {
      awaitingCommit.addLast(new long[] {segment, ++writes});
    }
  }

  /**
   * Runs a store commit and then releases the pins of every record written before it began: once
   * it returns, those records are durable in the store.
   */
  public void commit(Commit commit) throws IOException {
    long ticket;
    synchronized (this) {
      ticket = writes;
    }
    commit.run();
    synchronized (this) {
      while (!awaitingCommit.isEmpty() && awaitingCommit.peekFirst()[1] <= ticket) {
        unpin(awaitingCommit.pollFirst()[0]);
      }
    }
  }

  /**
   * Rolls the log to a new segment and answers the oldest segment that must be kept: the oldest
   * pinned one, or the new current one. Decided while no batch is between log and buffer.
   */
  public long oldestNeeded(WriteAheadLog wal) throws IOException {
    logging.writeLock().lock();
    try {
      wal.roll();
      synchronized (this) {
        return Math.min(pins.isEmpty() ? NONE : pins.firstKey(), wal.currentSegment());
      }
    } finally {
      logging.writeLock().unlock();
    }
  }

  /** Whether written records wait for a commit to release their segments. */
  public synchronized boolean awaitsCommit() {
    return !awaitingCommit.isEmpty();
  }

  /** The oldest pinned segment, {@link #NONE} when none is. */
  public synchronized long oldestPinned() {
    return pins.isEmpty() ? NONE : pins.firstKey();
  }
}
