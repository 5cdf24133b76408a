package io.chronix.ingest.pipeline;

import io.chronix.analysis.promql.engine.PointChanges;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.wal.SegmentLedger;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of every protocol: refuse when the buffers' memory budget is used up, write the
 * batch to the write-ahead log, add it to the series buffers while the log makes it durable, then
 * wait for that. When {@link #write} returns the batch may be acknowledged.
 *
 * <p>{@link #checkpoint} deletes log segments whose points are all committed to the store; the
 * {@link SegmentLedger} decides which those are.
 */
public final class IngestPipeline implements BatchWriter {

  private static final Logger LOG = LoggerFactory.getLogger(IngestPipeline.class);

  private final WriteAheadLog wal;
  private final SeriesBuffers buffers;
  private final SegmentLedger.Commit makeDurable;
  private final long maxBufferBytes;
  private final int maxSeries;
  private final Runnable relieve;
  private final SegmentLedger ledger;
  private volatile PointChanges changes = PointChanges.NONE;

  /**
   * @param makeDurable makes what the store has been given durable (a hard commit)
   * @param relieve asked to flush when the budget is reached (runs elsewhere; must not block)
   */
  public IngestPipeline(WriteAheadLog wal, SegmentLedger ledger, SeriesBuffers buffers, SegmentLedger.Commit makeDurable,
      long maxBufferBytes, int maxSeries, Runnable relieve) {
    this.wal = wal;
    this.ledger = ledger;
    this.buffers = buffers;
    this.makeDurable = makeDurable;
    this.maxBufferBytes = maxBufferBytes;
    this.maxSeries = maxSeries;
    this.relieve = relieve;
  }

  @Override
  public void write(PointBatch batch) throws IOException {
    if (batch.isEmpty()) {
      return;
    }
    SeriesBuffers.Resolved resolved = buffers.resolve(batch);
    BatchFootprint footprint = BatchFootprint.of(batch, resolved);
    int active = buffers.activeSeries();
    if (footprint.newSeries() > 0 && active + footprint.newSeries() > maxSeries) {
      throw new TooManySeriesException("too many series, nothing stored: " + active + " are active and the request"
          + " brings " + footprint.newSeries() + " new ones; buffer.maxSeries allows " + maxSeries
          + " (a series stops being active once idle for buffer.releaseIdleAfter)", 10);
    }
    long held = buffers.memoryBytes();
    if (held + footprint.bytes() > maxBufferBytes) {
      relieve.run();
      throw new OverloadedException("server overloaded, nothing stored: buffers hold " + held + " bytes and the"
          + " request needs " + footprint.bytes() + "; the budget (buffer.maxBytes) allows " + maxBufferBytes
          + ": retry shortly", 1);
    }
    // the points go into the buffers while the log's fsync runs; the request is acknowledged
    // only once the entry is on disk (docs/durability.md)
    WriteAheadLog.Written written = ledger.logging(() -> {
      WriteAheadLog.Written entry = wal.write(batch);
      buffers.addAll(batch, entry.segment(), resolved);
      return entry;
    });
    if (changes.listens()) {
      // the points are in the buffers, so queries read them now: answers kept from before may not hold
      changes.changedFrom(Math.floorDiv(batch.earliestTimestamp(), 1_000_000L));
    }
    wal.awaitDurable(written);
  }

  /** Tells {@code changes} of every batch from now on (answers kept from older points may not hold). */
  public void reportChangesTo(PointChanges changes) {
    this.changes = changes;
  }

  /** Puts replayed batches back into the buffers (start-up, before any write is taken). */
  public static void replayInto(PointBatch batch, SeriesBuffers buffers, long segment) throws IOException {
    buffers.addAll(batch, segment);
  }

  /**
   * Makes what is written durable in the store, if anything waits for that, and deletes every log
   * segment older than the oldest one still needed by a point that is not.
   */
  public void checkpoint() throws IOException {
    if (ledger.awaitsCommit()) {
      buffers.makeDurable(makeDurable::run);
    }
    // a fresh segment per checkpoint: once the buffers' oldest points are written, the segments
    // before theirs can go, so a replay never re-reads much more than chunk.maxAge of data
    long keepFrom = ledger.oldestNeeded(wal);
    if (wal.segments().stream().anyMatch(segment -> segment < keepFrom)) {
      int deleted = wal.deleteBefore(keepFrom);
      LOG.debug("checkpoint: deleted {} log segments before {}", deleted, keepFrom);
    }
  }
}
