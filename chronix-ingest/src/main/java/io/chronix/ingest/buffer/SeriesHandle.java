package io.chronix.ingest.buffer;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;

/**
 * A series as the write path keeps it from one request to the next: its key, and what each stage
 * found for it last time, so that a parser that hands out the same handle for the same series
 * (the line protocol's series cache) spares every later request those lookups. With ten thousand
 * series a request, the buffers' and the log's hash lookups of each series were a sixth of the
 * write path: each one a few cache misses.
 *
 * <p>Every cached value is a hint checked where it is used: a handle may be shared by requests on
 * several threads, and a stage may find its entry stale (a buffer let go while idle) and look the
 * series up as it would without a handle. Stages write a handle only when what they found changed:
 * two threads writing the same handles by turns made each write take the cache line from the
 * other core.
 */
public final class SeriesHandle {

  private final SeriesKey key;
  /** The key's hash, kept beside the handle's other fields: a table of handles compares it first. */
  private final int hash;
  /** The key's value type, here for the same reason: a batch reads it for each new series. */
  private final ValueType valueType;
  /** The series' buffer when the buffers last looked it up ({@link SeriesBuffers}). */
  volatile SeriesBuffer buffer;
  /** The key as the write-ahead log writes it; written once by whoever encodes it first. */
  private volatile byte[] logKey;
  /**
   * The log segment whose entries define this series (its identity, high 32 bits) and the
   * series' number there (low 32 bits): one long, so that a reader never pairs one segment with
   * another's number. Written once a segment, after the defining entry is written.
   */
  private volatile long logRef = -1;

  public SeriesHandle(SeriesKey key) {
    this.key = key;
    this.hash = key.hashCode();
    this.valueType = key.valueType();
  }

  public SeriesKey key() {
    return key;
  }

  /** The key's hash. */
  public int hash() {
    return hash;
  }

  public ValueType valueType() {
    return valueType;
  }

  /** The log's encoding of the key, or null when none was kept yet. */
  public byte[] logKey() {
    return logKey;
  }

  /** Keeps the log's encoding of the key (the same bytes whoever computes them). */
  public void logKey(byte[] encoded) {
    logKey = encoded;
  }

  /** The series' number in the log segment of this identity, or -1 when no entry there defines it. */
  public int logRef(int segmentIdentity) {
    long packed = logRef;
    return packed != -1 && (int) (packed >>> 32) == segmentIdentity ? (int) packed : -1;
  }

  /** Notes that a written entry of the segment of this identity defines the series as {@code ref}. */
  public void logRef(int segmentIdentity, int ref) {
    long packed = ((long) segmentIdentity << 32) | (ref & 0xFFFFFFFFL);
    if (logRef != packed) {
      logRef = packed;
    }
  }

  @Override
  public String toString() {
    return key.toString();
  }
}
