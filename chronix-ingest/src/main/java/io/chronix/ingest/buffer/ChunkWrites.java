package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.wal.SegmentLedger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chunks taken out of their buffers on their way to the store ({@link ChunkSink}). A full buffer's
 * chunk goes to the writer's executor, so that the request that filled it does not wait for the
 * store, when {@link WritePacing} lets it; a flush's chunks are written a {@link Batch} at a time,
 * one store request for many series. A written chunk's points are the store's: its buffer lets go
 * of them and its log segment counts as written. A chunk whose write fails goes back into its
 * buffer, for the flusher to try again.
 *
 * <p>Changes a buffer under its lock, as {@link SeriesBuffers} does; counts in the buffers'
 * {@link BufferTotals}. Thread-safe; one per {@link SeriesBuffers}.
 */
final class ChunkWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ChunkWrites.class);

  /** Chunks written together: one store request per batch, not per series. */
  private static final int BATCH_CHUNKS = 1000;
  private static final long BATCH_BYTES = 8L << 20;

  /** One chunk taken out of a buffer, on its way to the store. */
  record Taken(SeriesKey key, SeriesBuffer buffer, SeriesBuffer.Drained drained) {}

  private final ChunkSink sink;
  private final Executor writer;
  private final SegmentLedger ledger;
  private final BufferTotals totals;
  private final UnsearchableSeries unsearchable;
  private final LongSupplier clock;
  /** Full chunks handed to the writer and not yet done; guarded by itself. */
  private final int[] handedOver = {0};
  private volatile WritePacing pacing = WritePacing.NONE;

  ChunkWrites(ChunkSink sink, Executor writer, SegmentLedger ledger, BufferTotals totals,
      UnsearchableSeries unsearchable, LongSupplier clock) {
    this.sink = sink;
    this.writer = writer;
    this.ledger = ledger;
    this.totals = totals;
    this.unsearchable = unsearchable;
    this.clock = clock;
  }

  void pace(WritePacing pacing) {
    this.pacing = pacing;
  }

  WritePacing pacing() {
    return pacing;
  }

  /**
   * Hands a full buffer's chunk to the writer; {@link #awaitHandedOver} waits for it. A writer
   * that takes no more work (stopped while an append or a flush still cuts full chunks) leaves the
   * chunk to the caller, who writes it at once: refused, the chunk would be neither in its buffer
   * nor in the store, and a flush would wait for it forever.
   */
  void handOver(Taken chunk) {
    synchronized (handedOver) {
      handedOver[0]++;
    }
    long queued = clock.getAsLong();
    WritePacing paced = pacing;
    try {
      writer.execute(() -> {
        paced.awaitTurn(queued, totals::memory);
        writeHandedOver(chunk);
      });
    } catch (RejectedExecutionException stopped) {
      writeHandedOver(chunk);
    }
  }

  private void writeHandedOver(Taken chunk) {
    try {
      write(List.of(chunk));
    } catch (IOException | RuntimeException e) {
      // the points went back into the buffer; the flusher tries again
      LOG.warn("writing a full buffer of {} failed, will retry: {}", chunk.key(), e.getMessage());
    } finally {
      synchronized (handedOver) {
        handedOver[0]--;
        handedOver.notifyAll();
      }
    }
  }

  /** Waits until every chunk handed to the writer is written (or back in its buffer). */
  void awaitHandedOver() throws IOException {
    synchronized (handedOver) {
      while (handedOver[0] > 0) {
        try {
          handedOver.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for chunk writes", e);
        }
      }
    }
  }

  /**
   * A batch for one flush's chunks; {@code tracking}: the buffers keep copies of outgoing chunks
   * until searches see them ({@link SeriesBuffers#trackOutgoing}).
   */
  Batch batch(boolean tracking) {
    return new Batch(tracking);
  }

  /** Writes the chunks in one store request; on failure every one goes back to its buffer. */
  private void write(List<Taken> chunks) throws IOException {
    if (chunks.isEmpty()) {
      return;
    }
    List<SeriesKey> keys = new ArrayList<>(chunks.size());
    List<Points> points = new ArrayList<>(chunks.size());
    int[] sizes = new int[chunks.size()];
    for (int i = 0; i < chunks.size(); i++) {
      keys.add(chunks.get(i).key());
      Points sent = chunks.get(i).drained().points(); // numeric ones unpacked here, just before the write
      points.add(sent);
      sizes[i] = sent.size(); // the sink may de-duplicate in place
    }
    try {
      List<Points> stored = sink.acceptAll(keys, points);
      for (int i = 0; i < chunks.size(); i++) {
        written(chunks.get(i).buffer(), chunks.get(i).drained(), points.get(i), stored.get(i), sizes[i]);
      }
    } catch (IOException | RuntimeException e) {
      for (Taken chunk : chunks) {
        restore(chunk.key(), chunk.buffer(), chunk.drained());
      }
      throw e;
    }
  }

  private void written(SeriesBuffer buffer, SeriesBuffer.Drained drained, Points sent, Points stored, int size) {
    totals.addPoints(-size);
    ledger.written(drained.segment());
    synchronized (buffer.lock) {
      buffer.written(drained, sent, stored, clock.getAsLong());
    }
    totals.addMemory(-drained.bytes()); // written: the chunk's points are the store's now
  }

  private void restore(SeriesKey key, SeriesBuffer buffer, SeriesBuffer.Drained drained) {
    synchronized (buffer.lock) {
      long pinned = buffer.isEmpty() ? SeriesBuffer.NO_SEGMENT : buffer.oldestSegment();
      long before = buffer.retainedBytes();
      buffer.restore(drained);
      // back in the buffer: counted there now instead of on the way
      totals.addMemory(buffer.retainedBytes() - before - drained.bytes());
      // the buffer and the chunk each held a pin; the merged buffer keeps the older one
      if (pinned != SeriesBuffer.NO_SEGMENT) {
        ledger.unpin(Math.max(pinned, drained.segment()));
      }
      unsearchable.follow(key, buffer, clock.getAsLong());
    }
  }

  /**
   * Chunks taken out during one flush, written a batch at a time; a failed batch is remembered and
   * the others are still written, the first failure thrown at the end.
   */
  final class Batch {
    private final boolean tracking;
    private final List<Taken> pending = new ArrayList<>();
    private long pendingBytes;
    /** Bytes of every chunk taken out by this flush, written or not. */
    private long takenBytes;
    private IOException failure;

    private Batch(boolean tracking) {
      this.tracking = tracking;
    }

    void add(SeriesKey key, SeriesBuffer buffer, SeriesBuffer.Drained drained) {
      pending.add(new Taken(key, buffer, drained));
      pendingBytes += drained.bytes();
      takenBytes += drained.bytes();
      if (pending.size() >= BATCH_CHUNKS || pendingBytes >= BATCH_BYTES) {
        writePending();
      }
    }

    /**
     * Bytes this flush took out that are still counted and will leave on their own: chunks not yet
     * written, and, when tracked, the copies of all it took out, which leave once searches see
     * them. Without the copies a flush that makes room would count none made: taking a chunk out
     * only moves its bytes from the buffer to its copy, and every buffer would be written.
     */
    long leavingBytes() {
      return pendingBytes + (tracking ? takenBytes : 0);
    }

    void finish() throws IOException {
      writePending();
      if (failure != null) {
        throw failure;
      }
    }

    private void writePending() {
      try {
        write(pending);
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      } finally {
        pending.clear();
        pendingBytes = 0;
      }
    }
  }
}
