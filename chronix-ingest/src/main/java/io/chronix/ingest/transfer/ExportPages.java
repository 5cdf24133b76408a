package io.chronix.ingest.transfer;

/**
 * How many series an export asks the store for at once. Every page costs the store a pass over the
 * metadata of all matched records (it pages by offset, in the answer's order), so pages of few
 * points are made larger: an export of 10,000 series of 1,500 points each took 200 pages of 50 and
 * 19 s, most of it those passes. Pages of many points are made smaller, and a page the store
 * refuses for its points (its {@code maxDecodedPoints}) is asked again with half the series: with a
 * fixed 50, 50 series of more than a 50th of that limit each could not be exported at all.
 */
final class ExportPages {

  /** The first page's series: few, as nothing is known about their points yet. */
  static final int FIRST = 50;
  /**
   * Points a page is sized for: 16 MB decoded, a fifth of the launcher's {@code maxDecodedPoints}
   * (5.6 M), so that other queries keep their room beside an export.
   */
  static final long TARGET_POINTS = 1_000_000;
  /** A page grows at most this much from one to the next: the next series may be longer. */
  static final int GROWTH = 4;
  /** Series a page holds at most, whatever their points: the page's documents are held at once. */
  static final int MAX = 5_000;

  private int rows = FIRST;

  int rows() {
    return rows;
  }

  /** Sizes the next page from the last: {@code series} series holding {@code points} points in all. */
  void answered(int series, long points) {
    if (series == 0) {
      return;
    }
    long perSeries = Math.max(1, points / series);
    long fitting = Math.max(1, TARGET_POINTS / perSeries);
    rows = (int) Math.min(Math.min(fitting, (long) rows * GROWTH), MAX);
  }

  /**
   * The store refused the page for its points: the next try asks for half as many series. False
   * where the page held one series already: that series alone has more points than the store
   * decodes for one query.
   */
  boolean refused() {
    if (rows == 1) {
      return false;
    }
    rows = Math.max(1, rows / 2);
    return true;
  }
}
