package io.chronix.ingest.wal;

import java.util.Locale;

/** When the log forces appended entries to disk before a write is acknowledged. */
public enum FsyncPolicy {
  /** Every acknowledged write is on disk (writers arriving together share one fsync). */
  ALWAYS,
  /** Acknowledged writes reach the disk within the configured interval; a crash may lose that much. */
  INTERVAL,
  /** The operating system decides; a power loss may lose acknowledged writes (a process crash does not). */
  NEVER;

  public static FsyncPolicy parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("wal.fsync must be always, interval or never, not '" + text + "'");
    }
  }
}
