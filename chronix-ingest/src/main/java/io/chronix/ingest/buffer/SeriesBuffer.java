package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;

/** The not yet written points of one series; callers synchronize on the instance. */
final class SeriesBuffer {

  static final int BYTES_PER_POINT = 16;
  static final long NO_SEGMENT = Long.MAX_VALUE;

  private Points points = new Points(64);
  private long firstArrivalNanos;
  /** The oldest write-ahead-log segment holding one of these points. */
  private long oldestSegment = NO_SEGMENT;

  void add(long timestamp, double value, long nowNanos, long segment) {
    if (points.isEmpty()) {
      firstArrivalNanos = nowNanos;
    }
    points.add(timestamp, value);
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

  long oldestSegment() {
    return oldestSegment;
  }

  long firstArrivalNanos() {
    return firstArrivalNanos;
  }

  /** Takes the points out, leaving the buffer empty. */
  Drained drain() {
    Drained drained = new Drained(points, oldestSegment, firstArrivalNanos);
    points = new Points(Math.min(Math.max(64, drained.points().size()), 1 << 16));
    oldestSegment = NO_SEGMENT;
    return drained;
  }

  /** Puts points back in front after a failed write, so that none is lost. */
  void restore(Drained drained) {
    Points merged = new Points(drained.points().size() + points.size());
    merged.addAll(drained.points());
    merged.addAll(points);
    points = merged;
    firstArrivalNanos = drained.firstArrivalNanos();
    oldestSegment = Math.min(oldestSegment, drained.segment());
  }

  /** Replaces the points (replay filtering); keeps segment and age. */
  void replace(Points kept) {
    points = kept;
  }

  Points points() {
    return points;
  }

  /** Points taken out of a buffer, with where they came from. */
  record Drained(Points points, long segment, long firstArrivalNanos) {}
}
