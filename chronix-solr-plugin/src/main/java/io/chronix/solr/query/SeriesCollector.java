package io.chronix.solr.query;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesMerge;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.common.SolrException;
import org.apache.solr.search.DocIterator;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * Loads the records a query matched, groups them by series and joins each series' chunks into one
 * time-ordered sequence clipped to the query range. Chunks written later win where timestamps
 * collide (write order is Solr's {@code _version_}).
 */
public final class SeriesCollector {

  private final long maxDecodedPoints;

  public SeriesCollector(long maxDecodedPoints) {
    this.maxDecodedPoints = maxDecodedPoints;
  }

  /** Series in a stable order: by name, then type, then attributes. */
  public List<Series> collect(SolrIndexSearcher searcher, DocSet docs, TimeRange range) throws IOException {
    Map<SeriesKey, List<StoredChunk>> bySeries = new HashMap<>();
    NumericDocValues versions = searcher.getSlowAtomicReader().getNumericDocValues(RecordFields.VERSION);
    long points = 0;
    DocIterator iterator = docs.iterator();
    while (iterator.hasNext()) {
      int docId = iterator.nextDoc();
      Document document = searcher.getDocFetcher().doc(docId);
      points += document.getField(RecordFields.COUNT).numericValue().longValue();
      if (points > maxDecodedPoints) {
        throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
            "the query matches more than " + maxDecodedPoints + " points (chronix.maxDecodedPoints);"
                + " narrow the time range or the series");
      }
      long version = versions != null && versions.advanceExact(docId) ? versions.longValue() : docId;
      BytesRef data = document.getBinaryValue(RecordFields.DATA);
      byte[] blob = new byte[data.length];
      System.arraycopy(data.bytes, data.offset, blob, 0, data.length);
      bySeries.computeIfAbsent(keyOf(document), k -> new ArrayList<>())
          .add(new StoredChunk(document.get(RecordFields.ID), version, blob));
    }
    List<Series> result = new ArrayList<>(bySeries.size());
    for (Map.Entry<SeriesKey, List<StoredChunk>> entry : bySeries.entrySet()) {
      Points joined = join(entry.getKey(), entry.getValue());
      Points clipped = range.isAll() ? joined : joined.clip(range.fromNanos(), range.toNanosExclusive());
      if (!clipped.isEmpty()) {
        result.add(new Series(entry.getKey(), clipped));
      }
    }
    result.sort(Comparator.comparing((Series s) -> s.key().name())
        .thenComparing(s -> s.key().type())
        .thenComparing(s -> s.key().attributes().toString()));
    return result;
  }

  private static Points join(SeriesKey key, List<StoredChunk> chunks) {
    chunks.sort(Comparator.comparingLong(StoredChunk::version));
    List<Points> decoded = new ArrayList<>(chunks.size());
    for (StoredChunk chunk : chunks) {
      try {
        decoded.add(ChunkCodec.decode(chunk.data()));
      } catch (CorruptBlobException e) {
        throw new SolrException(SolrException.ErrorCode.SERVER_ERROR,
            "record " + chunk.id() + " of series " + key + " cannot be decoded: " + e.getMessage(), e);
      }
    }
    return decoded.size() == 1 ? decoded.get(0) : SeriesMerge.merge(decoded);
  }

  static SeriesKey keyOf(Document document) {
    Map<String, String> attributes = new TreeMap<>();
    for (IndexableField field : document.getFields()) {
      if (RecordFields.isAttribute(field.name())) {
        attributes.put(field.name(), field.numericValue() != null ? field.numericValue().toString() : field.stringValue());
      }
    }
    return new SeriesKey(document.get(RecordFields.NAME), document.get(RecordFields.TYPE), attributes);
  }

  /** A joined, clipped series. */
  public record Series(SeriesKey key, Points points) {}
}
