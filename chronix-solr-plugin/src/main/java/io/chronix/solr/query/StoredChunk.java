package io.chronix.solr.query;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.Points;
import org.apache.solr.common.SolrException;

/**
 * A matched record as the join needs it: its blob, its write order, and its span (epoch
 * milliseconds) with its statistics, which answer whole-record aggregations without decoding.
 */
record StoredChunk(String id, long version, byte[] data, long startMillis, long endMillis, RecordStats stats) {

  /** The record's points; a blob that cannot be decoded is a server error naming record and series. */
  Points decode(SeriesFields series) {
    try {
      return ChunkCodec.decode(data);
    } catch (CorruptBlobException e) {
      throw new SolrException(SolrException.ErrorCode.SERVER_ERROR,
          "record " + id + " of series " + series + " cannot be decoded: " + e.getMessage(), e);
    }
  }
}
