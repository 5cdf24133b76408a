package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.wal.SegmentLedger;
import java.util.ArrayDeque;
import java.util.Iterator;

/** The not yet written points of one series; callers synchronize on the instance. */
final class SeriesBuffer {

  static final int BYTES_PER_POINT = 16;
  static final long NO_SEGMENT = SegmentLedger.NONE;

  private final ValueType type;
  private Points points;
  private long firstArrivalNanos;
  /** The oldest write-ahead-log segment holding one of these points. */
  private long oldestSegment = NO_SEGMENT;
  /**
   * Copies of chunks taken out and not yet searchable, oldest first: on their way to the store,
   * or written but within the store's lag until searches see them. Kept only when tracked.
   */
  private final ArrayDeque<Outgoing> outgoing = new ArrayDeque<>();

  SeriesBuffer(ValueType type) {
    this.type = type;
    this.points = new Points(type, 64);
  }

  /** Notes a point's arrival; the caller then appends it to {@link #points()}. */
  void arrive(long nowNanos, long segment) {
    if (points.isEmpty()) {
      firstArrivalNanos = nowNanos;
    }
    oldestSegment = Math.min(oldestSegment, segment);
  }

  boolean isFull(int maxPoints, long maxBytes) {
    return points.size() >= maxPoints || (long) points.size() * BYTES_PER_POINT >= maxBytes;
  }

  boolean isOlderThan(long ageNanos, long nowNanos) {
    return !points.isEmpty() && nowNanos - firstArrivalNanos >= ageNanos;
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

  long firstArrivalNanos() {
    return firstArrivalNanos;
  }

  /**
   * Takes the points out, leaving the buffer empty. A tracked chunk stays visible to
   * {@link #copyUnsearchable} until {@link #written} and the lag after it have passed; the store
   * may reorder the drained points, so a copy is kept.
   */
  Drained drain(boolean track) {
    Outgoing copy = null;
    if (track) {
      copy = new Outgoing(points.slice(0, points.size()));
      outgoing.addLast(copy);
    }
    Drained drained = new Drained(points, oldestSegment, firstArrivalNanos, copy);
    points = new Points(type, Math.min(Math.max(64, drained.points().size()), 1 << 16));
    oldestSegment = NO_SEGMENT;
    return drained;
  }

  /** Puts points back in front after a failed write, so that none is lost. */
  void restore(Drained drained) {
    Points merged = new Points(type, drained.points().size() + points.size());
    merged.addAll(drained.points());
    merged.addAll(points);
    points = merged;
    firstArrivalNanos = drained.firstArrivalNanos();
    oldestSegment = Math.min(oldestSegment, drained.segment());
    if (drained.outgoing() != null) {
      outgoing.remove(drained.outgoing()); // the points are back in the buffer itself
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
    for (Iterator<Outgoing> it = outgoing.iterator(); it.hasNext(); ) {
      Outgoing chunk = it.next();
      if (chunk.written && nowNanos - chunk.writtenAtNanos >= lagNanos) {
        it.remove();
      }
    }
  }

  /** Forgets written chunks a commit that began at the given time made searchable. */
  void forgetWrittenBefore(long beganNanos) {
    outgoing.removeIf(chunk -> chunk.written && chunk.writtenAtNanos < beganNanos);
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
   * Replaces the points (replay filtering); keeps segment and age unless nothing is left.
   *
   * @return the segment the buffer no longer needs, else {@link #NO_SEGMENT}
   */
  long replace(Points kept) {
    points = kept;
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

  /** Points taken out of a buffer, with where they came from. */
  record Drained(Points points, long segment, long firstArrivalNanos, Outgoing outgoing) {}

  /** A taken-out chunk as searches may miss it; identity matters, not content. */
  static final class Outgoing {
    Points points;
    boolean written;
    long writtenAtNanos;

    Outgoing(Points points) {
      this.points = points;
    }
  }
}
