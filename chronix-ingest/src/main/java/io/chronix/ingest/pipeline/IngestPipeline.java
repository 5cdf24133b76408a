package io.chronix.ingest.pipeline;

import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.store.RecordStore;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of every protocol: refuse when the buffers' memory budget is used up, append the
 * batch to the write-ahead log, then add it to the series buffers. When {@link #write} returns the
 * batch may be acknowledged.
 *
 * <p>{@link #checkpoint} deletes log segments whose points are all committed to the store. It
 * holds out writers while it decides, so that no batch sits in a segment it deletes without yet
 * being in a buffer.
 */
public final class IngestPipeline implements BatchWriter {

  private static final Logger LOG = LoggerFactory.getLogger(IngestPipeline.class);

  private final WriteAheadLog wal;
  private final SeriesBuffers buffers;
  private final RecordStore store;
  private final long maxBufferedPoints;
  private final Runnable relieve;
  private final ReentrantReadWriteLock checkpointLock = new ReentrantReadWriteLock();

  /**
   * @param relieve asked to flush when the budget is reached (runs elsewhere; must not block)
   */
  public IngestPipeline(WriteAheadLog wal, SeriesBuffers buffers, RecordStore store, long maxBufferedPoints,
      Runnable relieve) {
    this.wal = wal;
    this.buffers = buffers;
    this.store = store;
    this.maxBufferedPoints = maxBufferedPoints;
    this.relieve = relieve;
  }

  @Override
  public void write(PointBatch batch) throws IOException {
    if (batch.isEmpty()) {
      return;
    }
    long buffered = buffers.bufferedPoints();
    if (buffered + batch.size() > maxBufferedPoints) {
      relieve.run();
      throw new OverloadedException("buffers hold " + buffered + " points; the budget (buffer.maxBytes) allows "
          + maxBufferedPoints + ": retry shortly", 1);
    }
    checkpointLock.readLock().lock();
    try {
      BufferSink.addAll(batch, buffers, wal.append(batch));
    } finally {
      checkpointLock.readLock().unlock();
    }
  }

  /** Puts replayed batches back into the buffers (start-up, before any write is taken). */
  public static void replayInto(PointBatch batch, SeriesBuffers buffers, long segment) throws IOException {
    BufferSink.addAll(batch, buffers, segment);
  }

  /**
   * Commits the store and deletes every log segment older than the oldest one still needed by a
   * buffered or in-flight point.
   */
  public void checkpoint() throws IOException {
    long keepFrom;
    checkpointLock.writeLock().lock();
    try {
      // a fresh segment per checkpoint: once the buffers' oldest points are written, the segments
      // before theirs can go, so a replay never re-reads much more than chunk.maxAge of data
      wal.roll();
      keepFrom = Math.min(buffers.oldestUnflushedSegment(), wal.currentSegment());
    } finally {
      checkpointLock.writeLock().unlock();
    }
    if (wal.segments().stream().anyMatch(segment -> segment < keepFrom)) {
      store.commit(); // written records become durable in the index before their log goes
      int deleted = wal.deleteBefore(keepFrom);
      LOG.debug("checkpoint: deleted {} log segments before {}", deleted, keepFrom);
    }
  }
}
