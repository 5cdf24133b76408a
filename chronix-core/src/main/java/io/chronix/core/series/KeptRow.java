package io.chronix.core.series;

/**
 * A series listing's row that the store keeps from one request to the next (a segment's row of a
 * series, kept while the segment is open), with room for one value its reader derives from it: the
 * PromQL API keeps the row's label set and its JSON there, which were half of listing a metric's
 * 1,000 series once the rows themselves were kept (docs/benchmarks.md). Whatever is derived must
 * depend on the row's entries alone, which never change, and stay within {@link #DERIVED_BYTES}:
 * the store counts that much for each kept row.
 */
public final class KeptRow extends SortedArrayMap<String> {

  /** What the store counts for the derived value of a row; a reader keeps nothing larger. */
  public static final int DERIVED_BYTES = 448;

  /** Set once by a reader; two readers at once each derive an equal value, and either is kept. */
  private volatile Object derived;

  /**
   * The {@link SeriesKey#idBits} of the series whose key was found equal to this row, once
   * {@link #seriesKnown}. Every key equal to the row has the same bits, so two readers keeping it at
   * once keep one value. A live listing compares each buffered series' key with its row: value by
   * value, character by character, a third of its lookups' time (docs/benchmarks.md); with the
   * bits kept, the next listing compares one number.
   */
  private volatile long seriesId;
  private volatile boolean seriesKnown;

  /** The row's entries, sharing its arrays. */
  public KeptRow(SortedArrayMap<String> row) {
    super(row.names, row.values);
  }

  /** The value a reader derived and kept, or null. */
  public Object derived() {
    return derived;
  }

  /** Keeps {@code value}, derived from this row's entries alone. */
  public void keep(Object value) {
    derived = value;
  }

  /** Whether a key with these {@link SeriesKey#idBits} was found equal to this row before. */
  public boolean isRowOf(long seriesIdBits) {
    return seriesKnown && seriesId == seriesIdBits;
  }

  /** Keeps the {@link SeriesKey#idBits} of a key found equal to this row, entry by entry. */
  public void keepSeriesOf(SeriesKey key) {
    seriesId = key.idBits();
    seriesKnown = true;
  }
}
