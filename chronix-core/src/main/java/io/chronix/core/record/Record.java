package io.chronix.core.record;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.util.zip.CRC32;

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

  /**
   * A document id that is the same whenever the same chunk is written again, so a retried write
   * replaces instead of duplicating. The routing id in front (name and type) sends every record
   * of a name and type to one shard under Solr's compositeId router.
   */
  public String id() {
    CRC32 crc = new CRC32();
    crc.update(data);
    return key.routingId()
        + '!'
        + key.id()
        + '-'
        + Long.toHexString(start)
        + '-'
        + Long.toHexString(end)
        + '-'
        + Long.toHexString(stats.count())
        + '-'
        + Long.toHexString(crc.getValue());
  }
}
