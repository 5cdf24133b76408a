package io.chronix.core.record;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;

/**
 * One chunk of one series as it is stored: key, time span (epoch nanoseconds, inclusive),
 * statistics and the encoded data blob.
 */
public record Record(SeriesKey key, long start, long end, RecordStats stats, byte[] data) {

  public static Record encode(SeriesKey key, Points sortedPoints, ChunkCodec codec) {
    int n = sortedPoints.size();
    return new Record(
        key,
        sortedPoints.timestamp(0),
        sortedPoints.timestamp(n - 1),
        RecordStats.of(sortedPoints),
        codec.encode(sortedPoints));
  }

  public Points decode() {
    return ChunkCodec.decode(data);
  }

  /** The record's id ({@link RecordSchema#id}). */
  public String id() {
    return RecordSchema.id(this);
  }
}
