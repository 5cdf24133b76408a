package io.chronix.ingest.buffer;

import io.chronix.ingest.pipeline.IngestPipeline;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background thread: writes buffers that reached their maximum age, then lets the pipeline
 * delete log segments that are no longer needed; flushes everything at once and lets empty buffers
 * go when asked to relieve memory pressure.
 */
public final class Flusher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

  private final ScheduledExecutorService executor;
  private final SeriesBuffers buffers;
  private final IngestPipeline pipeline;
  private final AtomicBoolean reliefQueued = new AtomicBoolean();
  /** Past this much buffer memory (two thirds of the budget) a round writes the oldest buffers early... */
  private final long pressureBytes;
  /**
   * ...down to this much (half), leaving room for the next rounds' points and for the copies of
   * what it writes before writes are refused. Every early write makes records smaller (a fleet
   * of 180,000 series under the half and third it had wrote 20 points a record, and indexing them
   * took more of the server than anything else), so the band between the two is what is written.
   */
  private final long relievedBytes;

  /** @param budgetBytes the buffers' memory budget (buffer.maxBytes as the heap allows it) */
  public Flusher(SeriesBuffers buffers, IngestPipeline pipeline, Duration interval, long budgetBytes) {
    this.buffers = buffers;
    this.pipeline = pipeline;
    this.pressureBytes = budgetBytes / 3 * 2;
    this.relievedBytes = relievedBytes(budgetBytes);
    executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "chronix-flusher");
      thread.setDaemon(true);
      return thread;
    });
    long millis = Math.max(1, interval.toMillis());
    executor.scheduleWithFixedDelay(() -> round(false), millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Schedules an immediate flush of every buffer; returns at once. */
  public void relieve() {
    if (reliefQueued.compareAndSet(false, true)) {
      executor.execute(() -> {
        reliefQueued.set(false);
        round(true);
      });
    }
  }

  private void round(boolean all) {
    try {
      if (all) {
        buffers.flushAll();
      } else {
        buffers.flushOld();
        if (buffers.memoryBytes() > pressureBytes) {
          int early = buffers.flushOldest(reliefTarget(buffers.seriesBytes()));
          LOG.debug("buffer memory above {} MB: wrote {} buffers before chunk.maxAge", pressureBytes >> 20, early);
        }
      }
      pipeline.checkpoint();
      if (all) {
        buffers.releaseEmpty(); // after the commit: written chunks no longer hold their buffers
      }
    } catch (IOException | RuntimeException e) {
      // the points stay buffered and their log segments stay; the next round tries again
      LOG.warn("flushing buffers failed, will retry: {}", e.getMessage());
    }
  }

  /** The level a relief round writes the buffers down to: half the budget. */
  public static long relievedBytes(long budgetBytes) {
    return budgetBytes / 2;
  }

  /**
   * The relieved level, but never below the series' own memory plus half the room above it:
   * writing buffers out cannot free their keys, and a target under them would write every buffer
   * on every round.
   */
  long reliefTarget(long seriesBytes) {
    return Math.max(relievedBytes, seriesBytes + (pressureBytes - seriesBytes) / 2);
  }

  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
