package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.wal.SegmentLedger;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The not yet written points of one series, and the memory they hold ({@link #retainedBytes});
 * callers synchronize on {@link #lock}, which the buffers share a stripe at a time ({@link BufferLocks}).
 */
final class SeriesBuffer {

  static final long NO_SEGMENT = SegmentLedger.NONE;
  /**
   * Slots a new buffer starts with: a fleet of agents keeps a hundred thousand series active with
   * a few points each, so the empty arrays are most of a series' memory; busy series grow fast.
   */
  static final int INITIAL_CAPACITY = 8;
  /**
   * Slots a drained buffer starts again with at most: as many as its last chunk held, up to this.
   * A fleet's series of a point every second grew from 8 slots to 121 in six copies for each of
   * their chunks of some 85 points, a sixth of what a fleet's load allocated (docs/benchmarks.md);
   * a series that goes quiet keeps at most this many empty slots (1 kB) until it is released
   * idle or under pressure, and from 43 points on the 24 bytes counted a point cover them.
   */
  static final int RESTART_CAPACITY = 64;

  /** Guards this buffer, and every other buffer of the same stripe. */
  final Object lock;
  private final ValueType type;
  private Points points;
  /** Memory of the buffered points, as {@link BufferMemory#pointBytes} counts it. */
  private long pointBytes;
  private long firstArrivalNanos;
  private long lastActivityNanos;
  /** The oldest write-ahead-log segment holding one of these points. */
  private long oldestSegment = NO_SEGMENT;
  /**
   * Copies of chunks taken out and not yet searchable, oldest first: on their way to the store,
   * or written but within the store's lag until searches see them. Kept only when tracked.
   */
  private final ArrayDeque<Outgoing> outgoing = new ArrayDeque<>(0); // a slot, not the default 16: few chunks are in flight at once
  private long outgoingBytes;
  /** Taken out of the map while idle: an appender that still holds it must look the series up again. */
  private boolean retired;

  SeriesBuffer(ValueType type, long nowNanos, Object lock) {
    this.lock = lock;
    this.type = type;
    this.points = new Points(type, INITIAL_CAPACITY);
    this.lastActivityNanos = nowNanos;
  }

  /** Notes a point's arrival and its memory; the caller then appends it to {@link #points()}. */
  void arrive(long nowNanos, long segment, long bytes) {
    if (points.isEmpty()) {
      firstArrivalNanos = nowNanos;
    }
    lastActivityNanos = nowNanos;
    oldestSegment = Math.min(oldestSegment, segment);
    pointBytes += bytes;
  }

  /** Memory this buffer holds beyond its fixed part: buffered points and copies of outgoing chunks. */
  long retainedBytes() {
    return pointBytes + outgoingBytes;
  }

  boolean isFull(int maxPoints, long maxBytes) {
    return points.size() >= maxPoints || pointBytes >= maxBytes;
  }

  /**
   * How many more points of {@code bytesEach} make the buffer {@link #isFull} (at least one, as
   * adding point by point and checking after each would add).
   */
  int pointsUntilFull(int maxPoints, long maxBytes, long bytesEach) {
    long byBytes = (maxBytes - pointBytes + bytesEach - 1) / bytesEach;
    return (int) Math.max(1, Math.min(maxPoints - points.size(), Math.min(byBytes, Integer.MAX_VALUE)));
  }

  /** When the oldest buffered point arrived; meaningful only while points are buffered. */
  long firstArrivalNanos() {
    return firstArrivalNanos;
  }

  boolean isOlderThan(long ageNanos, long nowNanos) {
    return !points.isEmpty() && nowNanos - firstArrivalNanos >= ageNanos;
  }

  /** Nothing buffered, nothing outgoing, and no arrival for at least {@code idleNanos}. */
  boolean isIdle(long idleNanos, long nowNanos) {
    return !hasUnsearchable() && nowNanos - lastActivityNanos >= idleNanos;
  }

  void retire() {
    retired = true;
  }

  boolean isRetired() {
    return retired;
  }

  boolean isEmpty() {
    return points.isEmpty();
  }

  /** Whether {@link #copyUnsearchable} has anything to copy. */
  boolean hasUnsearchable() {
    return !points.isEmpty() || !outgoing.isEmpty();
  }

  long oldestSegment() {
    return oldestSegment;
  }

  /**
   * Takes the points out, leaving the buffer empty. A tracked chunk stays visible to
   * {@link #copyUnsearchable} until {@link #written} and the lag after it have passed; the store
   * may reorder the drained points, so a copy is kept (and counted). Points already in strict
   * order are kept themselves: the store leaves those as they are, and nothing appends to drained
   * points, so the copy (3 % of what a load of P4 allocated) would only repeat them.
   */
  Drained drain(boolean track, long nowNanos) {
    Outgoing copy = null;
    if (track) {
      copy = new Outgoing(points.isStrictlyIncreasing() ? points : points.slice(0, points.size()), pointBytes);
      outgoing.addLast(copy);
      outgoingBytes += copy.bytes;
    }
    Drained drained = new Drained(points, pointBytes, oldestSegment, firstArrivalNanos, copy);
    // sized like the last chunk, within bounds: a buffer grows as points come, and a large
    // chunk's size would hold memory for series that may not send again
    points = new Points(type, restartCapacity(drained.points().size()));
    pointBytes = 0;
    oldestSegment = NO_SEGMENT;
    lastActivityNanos = nowNanos;
    return drained;
  }

  static int restartCapacity(int lastChunkPoints) {
    return Math.max(INITIAL_CAPACITY, Math.min(lastChunkPoints, RESTART_CAPACITY));
  }

  /** Puts points back in front after a failed write, so that none is lost. */
  void restore(Drained drained) {
    Points merged = new Points(type, drained.points().size() + points.size());
    merged.addAll(drained.points());
    merged.addAll(points);
    points = merged;
    pointBytes += drained.bytes();
    firstArrivalNanos = drained.firstArrivalNanos();
    oldestSegment = Math.min(oldestSegment, drained.segment());
    if (drained.outgoing() != null && outgoing.remove(drained.outgoing())) {
      outgoingBytes -= drained.outgoing().bytes; // the points are back in the buffer itself
    }
  }

  /**
   * The store took the chunk; searches will see it within the lag, as stored: showing the stored
   * form until then keeps a lossy rule's output from mixing with the raw points.
   */
  void written(Drained drained, Points stored, long nowNanos) {
    if (drained.outgoing() != null) {
      drained.outgoing().points = stored;
      drained.outgoing().written = true;
      drained.outgoing().writtenAtNanos = nowNanos;
    }
  }

  /** Forgets written chunks that searches see by now. */
  void forgetSearchable(long lagNanos, long nowNanos) {
    if (outgoing.isEmpty()) {
      return; // the flusher asks every buffer each round: an iterator each was 3 % of a fleet's allocation
    }
    for (Iterator<Outgoing> it = outgoing.iterator(); it.hasNext(); ) {
      Outgoing chunk = it.next();
      if (chunk.written && nowNanos - chunk.writtenAtNanos >= lagNanos) {
        it.remove();
        outgoingBytes -= chunk.bytes;
      }
    }
  }

  /** Forgets written chunks a commit that began at the given time made searchable. */
  void forgetWrittenBefore(long beganNanos) {
    if (outgoing.isEmpty()) {
      return;
    }
    for (Iterator<Outgoing> it = outgoing.iterator(); it.hasNext(); ) {
      Outgoing chunk = it.next();
      if (chunk.written && chunk.writtenAtNanos < beganNanos) {
        it.remove();
        outgoingBytes -= chunk.bytes;
      }
    }
  }

  /** Outgoing chunks in the order they were taken out, then the buffered points; null when none. */
  Points copyUnsearchable() {
    if (outgoing.isEmpty() && points.isEmpty()) {
      return null;
    }
    int total = points.size();
    for (Outgoing chunk : outgoing) {
      total += chunk.points.size();
    }
    Points copy = new Points(type, total);
    for (Outgoing chunk : outgoing) {
      copy.addAll(chunk.points);
    }
    copy.addAll(points);
    return copy;
  }

  /**
   * The first and last timestamp of what {@link #copyUnsearchable} would copy, as {first, last};
   * null when it would copy nothing.
   */
  long[] unsearchableSpan() {
    if (outgoing.isEmpty() && points.isEmpty()) {
      return null;
    }
    long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
    for (Outgoing chunk : outgoing) {
      widen(span, chunk.points);
    }
    widen(span, points);
    return span[0] <= span[1] ? span : null;
  }

  private static void widen(long[] span, Points points) {
    for (int i = 0; i < points.size(); i++) {
      long t = points.timestamp(i);
      span[0] = Math.min(span[0], t);
      span[1] = Math.max(span[1], t);
    }
  }

  /**
   * Replaces the points (replay filtering); keeps segment and age unless nothing is left.
   *
   * @return the segment the buffer no longer needs, else {@link #NO_SEGMENT}
   */
  long replace(Points kept) {
    points = kept;
    pointBytes = BufferMemory.pointBytes(kept);
    if (!kept.isEmpty()) {
      return NO_SEGMENT;
    }
    long released = oldestSegment;
    oldestSegment = NO_SEGMENT;
    return released;
  }

  Points points() {
    return points;
  }

  /** Points taken out of a buffer, with the memory they hold and where they came from. */
  record Drained(Points points, long bytes, long segment, long firstArrivalNanos, Outgoing outgoing) {}

  /** A taken-out chunk as searches may miss it; identity matters, not content. */
  static final class Outgoing {
    Points points;
    final long bytes;
    boolean written;
    long writtenAtNanos;

    Outgoing(Points points, long bytes) {
      this.points = points;
      this.bytes = bytes;
    }
  }
}
