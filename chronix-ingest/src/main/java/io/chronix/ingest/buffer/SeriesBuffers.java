package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Per-series point buffers in a hash map: adding a point costs the same however many series there
 * are. A buffer is handed to the {@link ChunkSink} when it is full (points or bytes), when it is
 * old, and on {@link #flushAll}.
 */
public final class SeriesBuffers {

  private final Map<SeriesKey, SeriesBuffer> buffers = new ConcurrentHashMap<>();
  private final int maxPoints;
  private final long maxBytes;
  private final long maxAgeNanos;
  private final ChunkSink sink;
  private final LongSupplier clock;
  private final AtomicLong buffered = new AtomicLong();

  public SeriesBuffers(int maxPoints, long maxBytes, Duration maxAge, ChunkSink sink) {
    this(maxPoints, maxBytes, maxAge, sink, System::nanoTime);
  }

  SeriesBuffers(int maxPoints, long maxBytes, Duration maxAge, ChunkSink sink, LongSupplier clock) {
    this.maxPoints = maxPoints;
    this.maxBytes = maxBytes;
    this.maxAgeNanos = maxAge.toNanos();
    this.sink = sink;
    this.clock = clock;
  }

  public void add(SeriesKey key, long timestamp, double value) throws IOException {
    SeriesBuffer buffer = buffers.computeIfAbsent(key, k -> new SeriesBuffer());
    Points full = null;
    long arrival;
    synchronized (buffer) {
      arrival = clock.getAsLong();
      buffer.add(timestamp, value, arrival);
      buffered.incrementAndGet();
      if (buffer.isFull(maxPoints, maxBytes)) {
        full = buffer.drain();
      }
    }
    if (full != null) {
      write(key, buffer, full, arrival);
    }
  }

  /** Writes every buffer whose oldest point arrived at least chunk.maxAge ago. */
  public void flushOld() throws IOException {
    flush(false);
  }

  /** Writes every non-empty buffer (shutdown, explicit flush). */
  public void flushAll() throws IOException {
    flush(true);
  }

  private void flush(boolean all) throws IOException {
    IOException failure = null;
    for (Map.Entry<SeriesKey, SeriesBuffer> entry : buffers.entrySet()) {
      SeriesBuffer buffer = entry.getValue();
      Points drained = null;
      long now = clock.getAsLong();
      synchronized (buffer) {
        if (all ? !buffer.isEmpty() : buffer.isOlderThan(maxAgeNanos, now)) {
          drained = buffer.drain();
        }
      }
      if (drained != null) {
        try {
          write(entry.getKey(), buffer, drained, now);
        } catch (IOException e) {
          failure = failure == null ? e : failure; // keep flushing the others
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void write(SeriesKey key, SeriesBuffer buffer, Points points, long arrival) throws IOException {
    try {
      sink.accept(key, points);
      buffered.addAndGet(-points.size());
    } catch (IOException | RuntimeException e) {
      synchronized (buffer) {
        buffer.restore(points, arrival);
      }
      throw e;
    }
  }

  /** Points accepted but not yet handed to the sink. */
  public long bufferedPoints() {
    return buffered.get();
  }

  public int seriesCount() {
    return buffers.size();
  }
}
