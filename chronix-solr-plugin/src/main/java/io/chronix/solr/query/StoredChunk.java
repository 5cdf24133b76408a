package io.chronix.solr.query;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.codec.KeptBlocks;
import io.chronix.core.record.BlockStats;
import io.chronix.core.record.RangeStats;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.Points;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.common.SolrException;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * A matched record as the join needs it: its blob, its write order, and its span (epoch
 * milliseconds) with its statistics, which answer whole-record aggregations without decoding.
 * The blob is null where it was left unread ({@link #withData} reads it), or where the record's
 * points in the query's range were decoded as it was read ({@link #decodedFor}): then those
 * points stand in for it.
 */
record StoredChunk(String id, int docId, long version, byte[] data, long startMillis, long endMillis,
    RecordStats stats, IntFunction<BlockStats> blockStats, KeptBlocks keptBlocks, TimeRange decodedRange,
    Points decoded) {

  /** @param blockStats where the figures of the blob's blocks are kept ({@link RangeStats}), or null */
  StoredChunk(String id, int docId, long version, byte[] data, long startMillis, long endMillis, RecordStats stats,
      IntFunction<BlockStats> blockStats) {
    this(id, docId, version, data, startMillis, endMillis, stats, blockStats, KeptBlocks.NONE);
  }

  /** @param keptBlocks where the blob's decoded blocks are kept for the next range over them */
  StoredChunk(String id, int docId, long version, byte[] data, long startMillis, long endMillis, RecordStats stats,
      IntFunction<BlockStats> blockStats, KeptBlocks keptBlocks) {
    this(id, docId, version, data, startMillis, endMillis, stats, blockStats, keptBlocks, null, null);
  }

  /**
   * This chunk with its points in the range decoded now and its blob let go. A query over a few
   * minutes of many day-long records held every blob until the join, and the collector copied
   * them into the old generation: on 10,000 series a third of the query's time was collection.
   */
  StoredChunk decodedFor(TimeRange range) throws CorruptBlobException {
    return new StoredChunk(id, docId, version, null, startMillis, endMillis, stats, null, KeptBlocks.NONE, range,
        blobPoints(range));
  }

  private Points blobPoints(TimeRange range) throws CorruptBlobException {
    return range.isAll() ? ChunkCodec.decode(data)
        : ChunkCodec.decode(data, ChunkCodec.Limits.DEFAULT, range.fromNanos(), range.toNanosExclusive(), keptBlocks);
  }

  /** This chunk with its blob, read from the searcher the query ran on if it was left unread. */
  StoredChunk withData(SolrIndexSearcher searcher) {
    if (data != null || decoded != null) {
      return this;
    }
    try {
      BytesRef blob = searcher.getIndexReader().storedFields().document(docId, Set.of(RecordFields.DATA))
          .getBinaryValue(RecordFields.DATA);
      byte[] bytes = blob == null ? new byte[0] : BytesRef.deepCopyOf(blob).bytes;
      return new StoredChunk(id, docId, version, bytes, startMillis, endMillis, stats, null);
    } catch (IOException e) {
      throw new UncheckedIOException("record " + id + ": reading its blob", e);
    }
  }

  /** The record's points; a blob that cannot be decoded is a server error naming record and series. */
  Points decode(SeriesFields series) {
    return decode(series, TimeRange.ALL);
  }

  /**
   * The statistics of the record's points in the range and their first and last timestamps, read
   * without building the points where the blob allows ({@link RangeStats}); null when none is in
   * the range.
   */
  RangeStats rangeStats(SeriesFields series, TimeRange range) {
    if (data == null) {
      throw new IllegalStateException("record " + id + ": statistics asked of a record without its blob");
    }
    try {
      return RangeStats.of(data, ChunkCodec.Limits.DEFAULT, range.fromNanos(), range.toNanosExclusive(), blockStats,
          keptBlocks);
    } catch (CorruptBlobException e) {
      throw undecodable(series, e);
    }
  }

  /**
   * Whether the record holds a point in the range, told from its blob's blocks without decoding
   * its values where the blob is in order; null where its blob was left unread.
   */
  Boolean holdsPointIn(SeriesFields series, TimeRange range) {
    if (decoded != null) {
      return !decoded.isEmpty();
    }
    if (data == null) {
      return null;
    }
    try {
      return ChunkCodec.holdsPointIn(data, ChunkCodec.Limits.DEFAULT, range.fromNanos(), range.toNanosExclusive());
    } catch (CorruptBlobException e) {
      throw undecodable(series, e);
    }
  }

  /**
   * The record's points in the range: a record in time order, as the server writes them, is
   * decoded only as far as the range reaches and comes back clipped; one out of order comes back
   * whole.
   */
  Points decode(SeriesFields series, TimeRange range) {
    if (decoded != null) {
      if (!range.equals(decodedRange)) {
        throw new IllegalStateException("record " + id + " was decoded for " + decodedRange + ", not " + range);
      }
      return decoded;
    }
    try {
      return blobPoints(range);
    } catch (CorruptBlobException e) {
      throw undecodable(series, e);
    }
  }

  /** A blob that cannot be decoded: a server error naming the record and its series. */
  SolrException undecodable(SeriesFields series, CorruptBlobException e) {
    return new SolrException(SolrException.ErrorCode.SERVER_ERROR,
        "record " + id + " of series " + series + " cannot be decoded: " + e.getMessage(), e);
  }
}
