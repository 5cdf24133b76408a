package io.chronix.solr.query;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.PointValues;

/**
 * The smallest and largest value of a single-valued long field over a whole index, from its
 * points' metadata (no record read), and whether every record (deleted ones included) has one.
 */
record IndexBounds(long min, long max, boolean everyRecord) {

  /** How a range relates to every record's value of the field. */
  enum Cover { ALL, SOME, NONE }

  /**
   * The bounds last asked for, by field, of one index view. The points' metadata is walked segment by
   * segment through Solr's and Lucene's reader wrappers for each of a query's two time fields: 3 %
   * of a one-hour `max` (docs/benchmarks.md), for figures that stay the same as long as the
   * searcher, which answers thousands of queries.
   */
  private static volatile Known known;

  private record Known(IndexReader.CacheKey index, Map<String, IndexBounds> byField) {}

  static IndexBounds of(IndexReader reader, String field) throws IOException {
    IndexReader.CacheHelper helper = reader.getReaderCacheHelper();
    if (helper == null) {
      return read(reader, field);
    }
    IndexReader.CacheKey index = helper.getKey();
    Known last = known;
    Map<String, IndexBounds> byField = last != null && last.index() == index ? last.byField() : Map.of();
    IndexBounds bounds = byField.get(field);
    if (bounds == null) {
      bounds = read(reader, field);
      Map<String, IndexBounds> more = new HashMap<>(byField);
      more.put(field, bounds);
      known = new Known(index, Map.copyOf(more)); // a race loses an entry, read again next time
    }
    return bounds;
  }

  private static IndexBounds read(IndexReader reader, String field) throws IOException {
    byte[] min = PointValues.getMinPackedValue(reader, field);
    byte[] max = PointValues.getMaxPackedValue(reader, field);
    if (min == null || max == null) { // no record has the field: no range holds any
      return new IndexBounds(Long.MAX_VALUE, Long.MIN_VALUE, false);
    }
    return new IndexBounds(LongPoint.decodeDimension(min, 0), LongPoint.decodeDimension(max, 0),
        PointValues.getDocCount(reader, field) == reader.maxDoc());
  }

  /** Whether every record's value lies in [lower, upper], none does, or some may. */
  Cover against(long lower, long upper) {
    if (min > max || max < lower || min > upper) {
      return Cover.NONE;
    }
    return everyRecord && lower <= min && max <= upper ? Cover.ALL : Cover.SOME;
  }
}
