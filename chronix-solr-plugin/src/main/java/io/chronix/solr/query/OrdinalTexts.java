package io.chronix.solr.query;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.LeafReader;

/**
 * A segment's series field values as Strings by ordinal, kept while the segment is open. A series
 * listing or a {@code max} over records reads a text column's values record by record: looking each
 * ordinal up in Lucene's terms dictionary (a block inflated and a term seeked), decoding its UTF-8
 * and sorting the records by ordinal so that each block is inflated once was a fifth of listing
 * 1,000 series over 6 hours (docs/benchmarks.md). Segments never change, so an ordinal's String is
 * the same until the segment closes; kept, it also keeps its hash, which the listing's rows are
 * hashed by. Kept values are interned, so a value is one String in every segment, and the rows of
 * a series' records in two segments are equal by identity rather than character by character. The
 * JVM's string table holds them weakly, and the slots' bound is also the bound on the Strings this
 * adds to it (the collector visits the table's entries at each collection).
 *
 * <p>A column is kept only where it has at most {@value #MAX_VALUES} values (not ids, not an
 * attribute as many-valued as ids), and all columns kept hold at most {@value #MAX_SLOTS} slots
 * together (4 bytes each, plus the Strings looked up so far). A column past either bound is read
 * from the terms dictionary as before. Slots are filled as they are first looked up; two readers
 * may fill one slot at once, each with an equal String.
 */
final class OrdinalTexts {

  static final int MAX_VALUES = 65_536;
  static final int MAX_SLOTS = 1 << 20;

  /** Per segment core: per field its slots. */
  private static final SegmentCores<Map<String, String[]>> KEPT =
      new SegmentCores<>((core, columns) -> giveBack(columns));
  /** Slots of all kept columns. Guarded by the class, as are the columns' maps' changes. */
  private static int slots;

  private OrdinalTexts() {}

  /**
   * The kept slots of the segment's column, made (empty) on first use; null where the column is
   * not kept: too many values, the bound reached, or a segment that cannot tell when it closes.
   */
  static String[] column(LeafReader segment, String field, int valueCount) {
    if (valueCount > MAX_VALUES) {
      return null;
    }
    // a column kept already is found without the lock: every read of a label column asks
    String[] kept = kept(segment, field);
    if (kept != null) {
      return kept.length == valueCount ? kept : null;
    }
    synchronized (OrdinalTexts.class) {
      kept = kept(segment, field);
      if (kept != null) {
        return kept.length == valueCount ? kept : null;
      }
      if (slots + valueCount > MAX_SLOTS) {
        return null;
      }
      Map<String, String[]> columns = KEPT.get(segment, core -> new ConcurrentHashMap<>());
      if (columns == null) {
        return null;
      }
      kept = new String[valueCount];
      columns.put(field, kept);
      slots += valueCount;
      return kept;
    }
  }

  private static String[] kept(LeafReader segment, String field) {
    Map<String, String[]> columns = KEPT.peek(segment);
    return columns == null ? null : columns.get(field);
  }

  /** Slots kept in all: for tests. */
  static synchronized int slots() {
    return slots;
  }

  private static synchronized void giveBack(Map<String, String[]> columns) {
    for (String[] kept : columns.values()) {
      slots -= kept.length;
    }
  }
}
