package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;

/** The not yet written points of one series; callers synchronize on the instance. */
final class SeriesBuffer {

  static final int BYTES_PER_POINT = 16;

  private Points points = new Points(64);
  private long firstArrivalNanos;

  void add(long timestamp, double value, long nowNanos) {
    if (points.isEmpty()) {
      firstArrivalNanos = nowNanos;
    }
    points.add(timestamp, value);
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

  int size() {
    return points.size();
  }

  /** Takes the points out, leaving the buffer empty. */
  Points drain() {
    Points drained = points;
    points = new Points(Math.min(Math.max(64, drained.size()), 1 << 16));
    return drained;
  }

  /** Puts points back in front after a failed write, so that none is lost. */
  void restore(Points drained, long arrivalNanos) {
    Points merged = new Points(drained.size() + points.size());
    merged.addAll(drained);
    merged.addAll(points);
    points = merged;
    firstArrivalNanos = arrivalNanos;
  }
}
