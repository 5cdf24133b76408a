package io.chronix.ingest.buffer;

import io.chronix.core.codec.PackedPoints;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.wal.SegmentLedger;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The not yet written points of one series, and the memory they hold ({@link #retainedBytes});
 * callers synchronize on {@link #lock}, which the buffers share a stripe at a time ({@link BufferLocks}).
 * Numeric points are kept packed ({@link PackedPoints}), strings and arrays as they came.
 */
final class SeriesBuffer {

  static final long NO_SEGMENT = SegmentLedger.NONE;
  /**
   * Slots a new buffer of strings or arrays starts with: a fleet of agents keeps a hundred thousand
   * series active with a few points each, so the empty arrays are most of a series' memory.
   */
  static final int INITIAL_CAPACITY = 8;
  /**
   * Slots a drained buffer of strings or arrays starts again with at most: as many as its last
   * chunk held, up to this. A fleet's series of a point every second grew from 8 slots to 121 in
   * six copies for each of their chunks of some 85 points (docs/benchmarks.md); a series that goes
   * quiet keeps at most this many empty slots until it is released idle or under pressure.
   */
  static final int RESTART_CAPACITY = 64;
  /**
   * Bytes a drained numeric buffer keeps its array of at most, to start again with (else one as
   * large as its last chunk filled, up to this); a new one starts with none, as most of a fleet's
   * series send a few points at a time. A series that sends steadily fills a chunk about as large
   * as its last one: kept whole, its array does not grow again, where each growth left the old
   * array, promoted by then, to the collector's old generation.
   */
  static final int RESTART_PACKED_BYTES = 4096;

  /** Guards this buffer, and every other buffer of the same stripe. */
  final Object lock;
  private final ValueType type;
  /** Numeric points; null for strings and arrays. */
  private PackedPoints packed;
  /** String and array points; null for numeric ones. */
  private Points points;
  /**
   * Memory of the buffered points: numeric ones' packed array as far as it grew beyond {@link
   * #keptBytes}, strings and arrays as {@link BufferMemory#pointBytes} counts them.
   */
  private long pointBytes;
  /**
   * The packed array a drained numeric buffer kept to start again with: memory of the series
   * rather than of its points, as writing the buffer out cannot free it.
   */
  private long keptBytes;
  private long firstArrivalNanos;
  private long lastActivityNanos;
  /** The oldest write-ahead-log segment holding one of these points. */
  private long oldestSegment = NO_SEGMENT;
  /**
   * Copies of chunks taken out and not yet searchable, oldest first: on their way to the store,
   * or written but within the store's lag until searches see them. Kept only when tracked. Room
   * for one chunk (the default is 16), made with the buffer: few chunks are in flight at once, and
   * a deque made with none grew its array at its first chunk, a new object stored in a long-lived
   * one, which the collector then scans at every young collection until that object is old.
   */
  private final ArrayDeque<Outgoing> outgoing = new ArrayDeque<>(1);
  private long outgoingBytes;
  /** Taken out of the map while idle: an appender that still holds it must look the series up again. */
  private boolean retired;

  SeriesBuffer(ValueType type, long nowNanos, Object lock) {
    this.lock = lock;
    this.type = type;
    if (isNumeric(type)) {
      this.packed = new PackedPoints(type);
    } else {
      this.points = new Points(type, INITIAL_CAPACITY);
    }
    this.lastActivityNanos = nowNanos;
  }

  static boolean isNumeric(ValueType type) {
    return type == ValueType.DOUBLE || type == ValueType.BOOLEAN || type == ValueType.LONG;
  }

  /**
   * Notes a point's arrival and its memory; the caller then appends it to {@link #packed()} (and
   * counts it with {@link #countPacked()}, with no bytes here) or to {@link #points()}.
   */
  void arrive(long nowNanos, long segment, long bytes) {
    if (isEmpty()) {
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

  /**
   * Counts the packed array as it is after numeric points went in: its growth beyond what it kept,
   * as the array holds them (a gauge's point two or three bytes), not a fixed share per point.
   *
   * @return the change of {@link #retainedBytes}
   */
  long countPacked() {
    long before = pointBytes;
    pointBytes = Math.max(0, packed.capacityBytes() - keptBytes);
    return pointBytes - before;
  }

  /** The packed array kept from the last drain, part of the series' fixed memory; 0 for strings and arrays. */
  long keptBytes() {
    return keptBytes;
  }

  boolean isFull(int maxPoints, long maxBytes) {
    return size() >= maxPoints || chunkBytes() >= maxBytes;
  }

  /**
   * The chunk's bytes as chunk.maxBytes bounds them: numeric points as packed (at most {@link
   * BufferMemory#NUMERIC_POINT} each, which {@link #pointsUntilFull} relies on), others as counted.
   */
  private long chunkBytes() {
    return packed != null ? packed.length() : pointBytes;
  }

  /** Points buffered. */
  int size() {
    return packed != null ? packed.size() : points.size();
  }

  /**
   * How many more points of {@code bytesEach} make the buffer {@link #isFull} (at least one, as
   * adding point by point and checking after each would add).
   */
  int pointsUntilFull(int maxPoints, long maxBytes, long bytesEach) {
    long byBytes = (maxBytes - chunkBytes() + bytesEach - 1) / bytesEach;
    return (int) Math.max(1, Math.min(maxPoints - size(), Math.min(byBytes, Integer.MAX_VALUE)));
  }

  /** When the oldest buffered point arrived; meaningful only while points are buffered. */
  long firstArrivalNanos() {
    return firstArrivalNanos;
  }

  boolean isOlderThan(long ageNanos, long nowNanos) {
    return !isEmpty() && nowNanos - firstArrivalNanos >= ageNanos;
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
    return size() == 0;
  }

  /** Whether {@link #copyUnsearchable} has anything to copy. */
  boolean hasUnsearchable() {
    return !isEmpty() || !outgoing.isEmpty();
  }

  long oldestSegment() {
    return oldestSegment;
  }

  /**
   * Takes the points out, leaving the buffer empty. A tracked chunk stays visible to
   * {@link #copyUnsearchable} until {@link #written} and the lag after it have passed (counted
   * meanwhile). Numeric points stay packed, in the drained chunk until its write unpacks them and in
   * the tracked copy until searches see it: unpacked, a relief round's chunks were 16 bytes a point
   * for the lag after their write, and the collector copied them. The store may reorder unpacked
   * points, so strings and arrays are tracked as a copy unless already in strict order: the store
   * leaves those as they are, and nothing appends to drained points.
   */
  Drained drain(boolean track, long nowNanos) {
    Drained drained;
    Outgoing copy = null;
    if (packed != null) {
      PackedPoints taken = packed.takeAll(RESTART_PACKED_BYTES);
      long bytes = taken.heapBytes();
      if (track) {
        copy = new Outgoing(taken, null, bytes);
      }
      drained = new Drained(taken, null, bytes, oldestSegment, firstArrivalNanos, copy);
      keptBytes = packed.capacityBytes();
    } else {
      Points taken = points;
      // sized like the last chunk, within bounds: a buffer grows as points come, and a large
      // chunk's size would hold memory for series that may not send again
      points = new Points(type, restartCapacity(taken.size()));
      if (track) {
        copy = new Outgoing(null, taken.isStrictlyIncreasing() ? taken : taken.slice(0, taken.size()), pointBytes);
      }
      drained = new Drained(null, taken, pointBytes, oldestSegment, firstArrivalNanos, copy);
    }
    if (copy != null) {
      outgoing.addLast(copy);
      outgoingBytes += copy.bytes;
    }
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
    if (packed != null) {
      Points later = packed.unpack();
      packed = new PackedPoints(type, packed.length() + drained.packed().length(), packed.exponent());
      packed.addAll(drained.packed().unpack());
      packed.addAll(later);
      countPacked();
    } else {
      Points merged = new Points(type, drained.points().size() + points.size());
      merged.addAll(drained.points());
      merged.addAll(points);
      points = merged;
      pointBytes += drained.bytes();
    }
    firstArrivalNanos = drained.firstArrivalNanos();
    oldestSegment = Math.min(oldestSegment, drained.segment());
    if (drained.outgoing() != null && outgoing.remove(drained.outgoing())) {
      outgoingBytes -= drained.outgoing().bytes; // the points are back in the buffer itself
    }
  }

  /**
   * The store took the chunk ({@code sent}, as {@link Drained#points} gave it); searches will see
   * it within the lag, as stored: showing the stored form until then keeps a lossy rule's output
   * from mixing with the raw points. Numeric points stay packed (the copy is counted as such).
   */
  void written(Drained drained, Points sent, Points stored, long nowNanos) {
    if (drained.outgoing() != null) {
      if (drained.outgoing().packed == null) {
        drained.outgoing().points = stored;
      } else if (stored != sent) {
        drained.outgoing().packed = PackedPoints.of(stored);
      }
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
    if (outgoing.isEmpty() && isEmpty()) {
      return null;
    }
    int total = size();
    for (Outgoing chunk : outgoing) {
      total += chunk.size();
    }
    Points copy = new Points(type, total);
    for (Outgoing chunk : outgoing) {
      addTo(copy, chunk.packed, chunk.points);
    }
    copyTo(copy);
    return copy;
  }

  /** Appends the buffered points, in arrival order, to points of the series' type. */
  void copyTo(Points target) {
    addTo(target, packed, points);
  }

  /** Appends points held one way or the other: packed, or as they came. */
  private static void addTo(Points target, PackedPoints packed, Points points) {
    if (packed != null) {
      packed.addTo(target);
    } else {
      target.addAll(points);
    }
  }

  /**
   * The first and last timestamp of what {@link #copyUnsearchable} would copy, as {first, last};
   * null when it would copy nothing.
   */
  long[] unsearchableSpan() {
    if (outgoing.isEmpty() && isEmpty()) {
      return null;
    }
    long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
    for (Outgoing chunk : outgoing) {
      widen(span, chunk.packed, chunk.points);
    }
    widen(span, packed, points);
    return span[0] <= span[1] ? span : null;
  }

  private static void widen(long[] span, PackedPoints packed, Points points) {
    if (packed != null) {
      span[0] = Math.min(span[0], packed.minTimestamp());
      span[1] = Math.max(span[1], packed.maxTimestamp());
      return;
    }
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
    if (packed != null) {
      packed = PackedPoints.of(kept);
      countPacked();
    } else {
      points = kept;
      pointBytes = BufferMemory.pointBytes(kept);
    }
    if (!kept.isEmpty()) {
      return NO_SEGMENT;
    }
    long released = oldestSegment;
    oldestSegment = NO_SEGMENT;
    return released;
  }

  /** A copy of the buffered points, in arrival order. */
  Points copy() {
    Points copy = new Points(type, size());
    copyTo(copy);
    return copy;
  }

  /** The buffered numeric points, to append to; null for strings and arrays. */
  PackedPoints packed() {
    return packed;
  }

  /** The buffered string or array points, to append to; null for numeric ones. */
  Points points() {
    return points;
  }

  /**
   * Points taken out of a buffer, packed (numeric) or listed (strings, arrays), with the memory
   * they hold and where they came from.
   */
  record Drained(PackedPoints packed, Points listed, long bytes, long segment, long firstArrivalNanos,
      Outgoing outgoing) {

    /** The points to write: numeric ones unpacked anew each call, others the listed points themselves. */
    Points points() {
      return packed != null ? packed.unpack() : listed;
    }
  }

  /** A taken-out chunk as searches may miss it, packed or as stored; identity matters, not content. */
  static final class Outgoing {
    PackedPoints packed;
    Points points;
    final long bytes;
    boolean written;
    long writtenAtNanos;

    Outgoing(PackedPoints packed, Points points, long bytes) {
      this.packed = packed;
      this.points = points;
      this.bytes = bytes;
    }

    int size() {
      return packed != null ? packed.size() : points.size();
    }
  }
}
