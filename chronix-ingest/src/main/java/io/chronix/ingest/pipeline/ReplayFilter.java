package io.chronix.ingest.pipeline;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.solr.RecordSpans;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;

/**
 * After a crash the log replays points that may already have been written to the store (their
 * segment was not yet deleted). Before such points are written again, this drops every replayed
 * point whose series already holds the same timestamp and value bits in the store, so the store
 * keeps one copy.
 */
public final class ReplayFilter {

  /** Records of one series overlapping a replay: a handful; the bound only guards memory. */
  private static final int MAX_RECORDS = 100_000;
  /**
   * Records asked for first: Lucene fills a queue as long as the rows asked for before it collects
   * a hit, and 100,000 rows a series were megabytes of garbage for each series replayed.
   */
  private static final int FIRST_ROWS = 16;

  private final SolrClient client;
  private final String collection;
  private final int firstRows;

  public ReplayFilter(SolrClient client, String collection) {
    this(client, collection, FIRST_ROWS);
  }

  ReplayFilter(SolrClient client, String collection, int firstRows) {
    this.client = client;
    this.collection = collection;
    this.firstRows = firstRows;
  }

  /** @return points dropped */
  public long apply(SeriesBuffers buffers) throws IOException {
    long dropped = 0;
    for (SeriesKey key : buffers.keys()) {
      Points replayed = buffers.snapshot(key);
      if (replayed.isEmpty()) {
        continue;
      }
      Set<StoredPoint> stored = storedPoints(key, replayed);
      if (stored.isEmpty()) {
        continue;
      }
      long[] removed = {0};
      buffers.filter(key, points -> {
        Points kept = new Points(points.type(), points.size());
        for (int i = 0; i < points.size(); i++) {
          if (stored.contains(StoredPoint.of(points, i))) {
            removed[0]++;
          } else {
            kept.addFrom(points, i);
          }
        }
        return kept;
      });
      dropped += removed[0];
    }
    return dropped;
  }

  private Set<StoredPoint> storedPoints(SeriesKey key, Points replayed) throws IOException {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < replayed.size(); i++) {
      min = Math.min(min, replayed.timestamp(i));
      max = Math.max(max, replayed.timestamp(i));
    }
    SolrQuery query = RecordSpans.overlapping(new SolrQuery(RecordFields.ID + ":"
        + ClientUtils.escapeQueryChars(RecordSchema.seriesPrefix(key)) + "*"), RecordFields.nanosToMillis(min),
        RecordFields.nanosToMillis(max))
        .setFields(RecordFields.DATA)
        .setRows(firstRows);
    Set<StoredPoint> stored = new HashSet<>();
    try {
      SolrDocumentList found = client.query(collection, query).getResults();
      if (found.getNumFound() > found.size()) {
        found = client.query(collection, query.setRows((int) Math.min(found.getNumFound(), MAX_RECORDS))).getResults();
      }
      for (SolrDocument document : found) {
        Points points = ChunkCodec.decode((byte[]) document.getFirstValue(RecordFields.DATA));
        for (int i = 0; i < points.size(); i++) {
          stored.add(StoredPoint.of(points, i));
        }
      }
    } catch (SolrServerException e) {
      throw new IOException("cannot read stored records of " + key + " to de-duplicate the replay: " + e.getMessage(), e);
    }
    return stored;
  }

  /** A point by timestamp and exact value: bits of a double or long, or the string (an array's: its bits in hex). */
  private record StoredPoint(long timestamp, long valueBits, String text) {
    static StoredPoint of(Points points, int index) {
      switch (points.type()) {
        case LONG:
          return new StoredPoint(points.timestamp(index), points.longValue(index), null);
        case STRING:
          return new StoredPoint(points.timestamp(index), 0, points.text(index));
        case ARRAY:
          return new StoredPoint(points.timestamp(index), 0, bits(points.array(index)));
        default:
          return new StoredPoint(points.timestamp(index), Double.doubleToRawLongBits(points.value(index)), null);
      }
    }

    private static String bits(double[] array) {
      StringBuilder text = new StringBuilder(array.length * 17);
      for (double element : array) {
        text.append(Long.toHexString(Double.doubleToRawLongBits(element))).append(',');
      }
      return text.toString();
    }
  }
}
