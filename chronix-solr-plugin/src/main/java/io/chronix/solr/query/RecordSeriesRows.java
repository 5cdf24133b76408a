package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.KeptRow;
import io.chronix.core.series.SortedArrayMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.FixedBitSet;

/**
 * Each record's series row (its series fields as text, {@link DocValueRecords#fieldsOf}) by
 * document number, kept per segment core while the core is open. A series listing read every
 * matching record's series columns anew at each request: a lookup in each of some seven columns a
 * record, a fifth of listing a metric's 1,000 series over 6 hours (docs/benchmarks.md). Segments
 * never change, so a record's row is the same until its segment closes; kept, a listing takes it
 * with one array read, and the rows of a segment's records of one series are one row. A kept row
 * is a {@link KeptRow}, in which the listing's reader keeps what it derives from it.
 *
 * <p>All kept segments hold at most {@link #MAX_BYTES} together: 4 bytes a record of a segment
 * listed once, and about {@link #rowBytes} a distinct row with what its reader derives (its
 * Strings are {@link OrdinalTexts}' kept ones). A segment whose slots do not fit is read from its columns as before; so is a record
 * whose row would not fit, each time. A segment's bytes are given back when Lucene closes its
 * core. A segment's state is read and filled under its own lock: listings are few next to
 * queries, and one fill serves all that follow.
 */
final class RecordSeriesRows {

  /** A 32nd of the heap: 12 MB of the launcher's default 384 MB, a fleet's 10,000 series in 5 MB. */
  static final long MAX_BYTES = Runtime.getRuntime().maxMemory() / 32;

  private static final SegmentCores<RecordSeriesRows> KEPT = new SegmentCores<>((core, rows) -> giveBack(rows));
  /** Bytes of all kept segments. Guarded by the class. */
  private static long bytes;

  /** Per record: its row's index + 1, 0 where not read yet (a record without series fields has a row too). */
  private final int[] rowOf;
  private final List<SeriesRows.Row> rows = new ArrayList<>();
  private final Map<SeriesRows.Row, Integer> indexOf = new HashMap<>();
  /** Bytes {@link #bytes} counts for this segment (none for a core found closed while it is made). */
  private long counted;

  private RecordSeriesRows(int records) {
    this.rowOf = new int[records];
  }

  /**
   * Adds the distinct series rows of the segment's records {@code docs[0..count)} (increasing) to
   * {@code into}: kept rows where the segment has them, the rest read from {@code columns} and kept.
   */
  static void addRows(LeafReader segment, DocValueRecords columns, int[] docs, int count, SeriesRows into)
      throws IOException {
    addRows(segment, columns, docs, count, into, MAX_BYTES);
  }

  /** As {@link #addRows(LeafReader, DocValueRecords, int[], int, SeriesRows)}, with the bound on all kept bytes given. */
  static void addRows(LeafReader segment, DocValueRecords columns, int[] docs, int count, SeriesRows into,
      long maxBytes) throws IOException {
    RecordSeriesRows kept = of(segment, maxBytes);
    if (kept == null) {
      readRows(columns, docs, count, (batch, read) -> into.addAll(read));
      return;
    }
    kept.addRows(columns, docs, count, into, maxBytes);
  }

  private synchronized void addRows(DocValueRecords columns, int[] docs, int count, SeriesRows into, long maxBytes)
      throws IOException {
    int[] unread = new int[count];
    int unreadCount = 0;
    for (int i = 0; i < count; i++) {
      if (rowOf[docs[i]] == 0) {
        unread[unreadCount++] = docs[i];
      }
    }
    readRows(columns, unread, unreadCount, (batch, read) -> {
      for (int i = 0; i < read.size(); i++) {
        SeriesRows.Row row = new SeriesRows.Row(read.get(i));
        Integer index = indexOf.get(row);
        if (index == null) {
          if (!reserve(rowBytes(row.fields()), maxBytes)) {
            into.add(row); // read again next time
            continue;
          }
          row = new SeriesRows.Row(new KeptRow(row.fields()));
          index = rows.size();
          rows.add(row);
          indexOf.put(row, index);
        }
        rowOf[batch[i]] = index + 1;
      }
    });
    // a series' records lie side by side in a segment sorted by start only by chance: each row once
    FixedBitSet added = new FixedBitSet(Math.max(1, rows.size()));
    for (int i = 0; i < count; i++) {
      int index = rowOf[docs[i]] - 1;
      if (index >= 0 && !added.getAndSet(index)) {
        into.add(rows.get(index));
      }
    }
  }

  /** The rows of a batch of records, in the batch's order. */
  private interface RowsRead {
    void read(int[] batch, List<SortedArrayMap<String>> rows);
  }

  /** Reads the records' rows a batch at a time: the maps of one batch exist at once, the distinct series stay. */
  private static void readRows(DocValueRecords columns, int[] docs, int count, RowsRead each) throws IOException {
    for (int from = 0; from < count; from += RecordReader.BATCH) {
      int n = Math.min(RecordReader.BATCH, count - from);
      int[] batch = Arrays.copyOfRange(docs, from, from + n);
      each.read(batch, columns.fieldsOf(batch, n, RecordFields::isSeriesField));
    }
  }

  /**
   * About what a kept row holds: the map with its series' id bits, its values' array and its hashed
   * key (the names' array is shared, the Strings are kept by ordinal), its entries in the index, and
   * what its reader derives.
   */
  static long rowBytes(SortedArrayMap<String> row) {
    return 144 + 8L * row.size() + KeptRow.DERIVED_BYTES;
  }

  /** Counts {@code more} bytes for this segment if they fit under the bound. */
  private boolean reserve(long more, long maxBytes) {
    synchronized (RecordSeriesRows.class) {
      if (bytes + more > maxBytes) {
        return false;
      }
      bytes += more;
      counted += more;
      return true;
    }
  }

  /** The segment's kept rows, made on first use; null where its slots do not fit or it is not kept. */
  private static RecordSeriesRows of(LeafReader segment, long maxBytes) {
    RecordSeriesRows kept = KEPT.peek(segment);
    if (kept != null) {
      return kept;
    }
    synchronized (RecordSeriesRows.class) {
      kept = KEPT.peek(segment);
      if (kept != null) {
        return kept;
      }
      long slots = 4L * segment.maxDoc();
      if (bytes + slots > maxBytes) {
        return null;
      }
      kept = KEPT.get(segment, core -> new RecordSeriesRows(segment.maxDoc()));
      if (kept != null) {
        bytes += slots;
        kept.counted = slots;
      }
      return kept;
    }
  }

  private static void giveBack(RecordSeriesRows rows) {
    synchronized (RecordSeriesRows.class) {
      bytes -= rows.counted;
      rows.counted = 0;
    }
  }

  /** Bytes kept in all: for tests. */
  static synchronized long bytes() {
    return bytes;
  }

  /** Whether the segment's rows are kept: for tests. */
  static boolean isKept(LeafReader segment) {
    return KEPT.peek(segment) != null;
  }

  /** Bytes counted for the segment, 0 where it keeps nothing: for tests. */
  static long keptBytes(LeafReader segment) {
    RecordSeriesRows kept = KEPT.peek(segment);
    synchronized (RecordSeriesRows.class) {
      return kept == null ? 0 : kept.counted;
    }
  }
}
