package io.chronix.ingest.wal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The series numbers of one log segment as it is written: an entry defines a series (its number
 * and key) the first time the segment holds it, and later entries of the segment name it by
 * number. A request of ten thousand series wrote their keys in every entry, three quarters of its
 * bytes. Handles keep the number with the segment's identity, unique in the process, so that
 * another log (another server in the same JVM) or a later segment never takes it for its own.
 */
final class SegmentSeries {

  private static final AtomicInteger IDENTITIES = new AtomicInteger();

  private final int identity = IDENTITIES.incrementAndGet();
  private final AtomicInteger next = new AtomicInteger();

  int identity() {
    return identity;
  }

  /** A number no entry of this segment has used. */
  int newRef() {
    return next.getAndIncrement();
  }
}
