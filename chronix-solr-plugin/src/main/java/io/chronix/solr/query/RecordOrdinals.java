package io.chronix.solr.query;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * A series field's ordinal for each record of a segment, read once and kept per segment core while
 * the core is open. The values of a label read each matching record's ordinal from the column:
 * Lucene unpacks it from the doc values' blocks record by record, a quarter of listing the 1,000
 * hosts of 10,000 series over 6 hours (docs/benchmarks.md). Segments never change, so neither do
 * the ordinals; kept, a record's is one array read. A column is read whole on its first listing,
 * in one forward pass.
 *
 * <p>All kept columns hold at most {@link #MAX_BYTES} together (4 bytes a record of the segment);
 * a column past the bound is read from the doc values as before. A segment's columns are given
 * back when Lucene closes its core. Two readers may read a column at once; one of the equal
 * arrays is kept.
 */
final class RecordOrdinals {

  /** A 64th of the heap: 6 MB of the launcher's default 384 MB, 1.5 M records' ordinals. */
  static final long MAX_BYTES = Runtime.getRuntime().maxMemory() / 64;
  /** Kept for a record without a value in the column. */
  static final int NONE = -1;

  /** Per segment core: per field the records' ordinals. */
  private static final SegmentCores<Map<String, int[]>> KEPT = new SegmentCores<>((core, columns) -> giveBack(columns));
  /** Bytes of all kept columns. Guarded by the class, as are the columns' maps' changes. */
  private static long bytes;

  private RecordOrdinals() {}

  /**
   * Each record's ordinal in the segment's column of {@code field} ({@link #NONE} where it has no
   * value), read and kept on first use; null where not kept (past the bound, or a segment that
   * cannot tell when it closes).
   */
  static int[] of(LeafReader segment, String field) throws IOException {
    return of(segment, field, MAX_BYTES);
  }

  /** As {@link #of(LeafReader, String)}, with the bound on all kept bytes given. */
  static int[] of(LeafReader segment, String field, long maxBytes) throws IOException {
    Map<String, int[]> columns = KEPT.peek(segment);
    int[] ords = columns == null ? null : columns.get(field);
    if (ords != null) {
      return ords;
    }
    long more = 4L * segment.maxDoc();
    synchronized (RecordOrdinals.class) {
      if (bytes + more > maxBytes) {
        return null;
      }
    }
    ords = read(segment, field);
    synchronized (RecordOrdinals.class) {
      columns = KEPT.get(segment, core -> new ConcurrentHashMap<>());
      if (columns == null) {
        return null;
      }
      int[] kept = columns.get(field);
      if (kept != null) {
        return kept;
      }
      if (bytes + more > maxBytes) {
        return null;
      }
      columns.put(field, ords);
      bytes += more;
      return ords;
    }
  }

  private static int[] read(LeafReader segment, String field) throws IOException {
    int[] ords = new int[segment.maxDoc()];
    Arrays.fill(ords, NONE);
    SortedDocValues column = DocValues.getSorted(segment, field);
    for (int doc = column.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = column.nextDoc()) {
      ords[doc] = column.ordValue();
    }
    return ords;
  }

  private static synchronized void giveBack(Map<String, int[]> columns) {
    for (int[] ords : columns.values()) {
      bytes -= 4L * ords.length;
    }
  }

  /** Bytes kept in all: for tests. */
  static synchronized long bytes() {
    return bytes;
  }
}
