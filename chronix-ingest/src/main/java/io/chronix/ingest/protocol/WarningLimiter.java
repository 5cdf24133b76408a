package io.chronix.ingest.protocol;

import java.util.concurrent.TimeUnit;

/**
 * Lets one warning through per interval: a sender with a bug repeats it on every line, and the
 * log must stay readable (and the disk unfilled) while it does.
 */
final class WarningLimiter {

  private final long intervalNanos;
  private long nextAllowedNanos;
  private boolean started;
  private long suppressed;

  WarningLimiter(long interval, TimeUnit unit) {
    this.intervalNanos = unit.toNanos(interval);
  }

  /**
   * @return -1 when this warning is to be suppressed, else how many were suppressed since the
   *     last one let through
   */
  synchronized long admit() {
    long now = System.nanoTime();
    if (started && now - nextAllowedNanos < 0) {
      suppressed++;
      return -1;
    }
    started = true;
    nextAllowedNanos = now + intervalNanos;
    long dropped = suppressed;
    suppressed = 0;
    return dropped;
  }
}
