package io.chronix.ingest.buffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * When a full chunk is written: once batches stop coming for a moment, so that in a burst the
 * request threads have the cores. Encoding and indexing a chunk took a sixth of the server's CPU
 * during P4's first load and compiling Solr's indexing code a fifth of its JIT time, on a
 * machine where the clients and the server share two cores (docs/benchmarks.md, "Full chunks
 * written in the pauses"). A chunk does not wait longer than the configured delay
 * ({@code chunk.maxWriteDelay}), nor while the buffers hold more than the pressure level or a
 * flush is under way: then waiting would only hold memory and let writes be refused.
 *
 * <p>A waiting chunk stays in the buffers' memory count and in live queries (it is on its way,
 * as before), and the log keeps its points until it is written. Thread-safe; one per
 * {@link SeriesBuffers}.
 */
final class WritePacing {

  /** Written at once: no waiting at all. */
  static final WritePacing NONE = new WritePacing(0, Long.MAX_VALUE, System::nanoTime);

  /** A pause in the ingest: no batch for this long. Batches of a busy client come milliseconds apart. */
  static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final long maxDelayNanos;
  private final long pressureBytes;
  private final LongSupplier clock;
  private final AtomicInteger flushes = new AtomicInteger();
  private volatile long lastBatch;

  /**
   * @param maxDelayNanos the longest a chunk waits; 0: chunks are written at once
   * @param pressureBytes above this much buffer memory chunks are written at once
   */
  WritePacing(long maxDelayNanos, long pressureBytes, LongSupplier clock) {
    if (maxDelayNanos < 0) {
      throw new IllegalArgumentException("chunk.maxWriteDelay must not be negative");
    }
    this.maxDelayNanos = maxDelayNanos;
    this.pressureBytes = pressureBytes;
    this.clock = clock;
    this.lastBatch = clock.getAsLong() - QUIET_NANOS;
  }

  /** A batch went into the buffers at {@code nanos}. */
  void batchAdded(long nanos) {
    if (maxDelayNanos > 0) {
      lastBatch = nanos;
    }
  }

  /** A flush begins: chunks go at once until {@link #flushEnds}. */
  void flushBegins() {
    flushes.incrementAndGet();
  }

  void flushEnds() {
    flushes.decrementAndGet();
  }

  /**
   * Waits, in the chunk writer's thread, until the chunk handed over at {@code queuedNanos} may
   * be written. An interrupt ends the wait (the flag stays set).
   */
  void awaitTurn(long queuedNanos, LongSupplier heldBytes) {
    while (true) {
      long now = clock.getAsLong();
      long waited = now - queuedNanos;
      if (waited >= maxDelayNanos || now - lastBatch >= QUIET_NANOS || flushes.get() > 0
          || heldBytes.getAsLong() > pressureBytes) {
        return;
      }
      try {
        TimeUnit.NANOSECONDS.sleep(Math.min(POLL_NANOS, maxDelayNanos - waited));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
