package io.chronix.solr.query;

import java.io.IOException;
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

  static IndexBounds of(IndexReader reader, String field) throws IOException {
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
