package io.chronix.ingest.buffer;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes buffers that reached their maximum age, on a background thread. */
public final class Flusher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

  private final ScheduledExecutorService executor;

  public Flusher(SeriesBuffers buffers, Duration interval) {
    executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "chronix-flusher");
      thread.setDaemon(true);
      return thread;
    });
    long millis = Math.max(1, interval.toMillis());
    executor.scheduleWithFixedDelay(() -> {
      try {
        buffers.flushOld();
      } catch (IOException | RuntimeException e) {
        // the points stay buffered; the next round tries again
        LOG.warn("flushing aged buffers failed, will retry: {}", e.getMessage());
      }
    }, millis, millis, TimeUnit.MILLISECONDS);
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
