package io.chronix.analysis.analysis;

import java.util.Arrays;

/**
 * The cells of a cost matrix that DTW may visit: per row one contiguous column range. Contiguous
 * ranges suffice because warp paths are monotone, and they keep the constrained DTW linear in the
 * window size.
 */
final class SearchWindow {

  final int[] low;
  final int[] high;

  private SearchWindow(int[] low, int[] high) {
    this.low = low;
    this.high = high;
  }

  static SearchWindow full(int rows, int columns) {
    int[] low = new int[rows];
    int[] high = new int[rows];
    Arrays.fill(high, columns - 1);
    return new SearchWindow(low, high);
  }

  /**
   * The cells of a coarse path (over series of half the resolution) at full resolution, widened by
   * {@code radius} cells in every direction, as in Salvador and Chan's FastDTW. Coarse cell (i, j)
   * covers fine rows 2i..2i+1 and columns 2j..2j+1.
   */
  static SearchWindow projected(WarpPath coarse, int rows, int columns, int radius) {
    int[] low = new int[rows];
    int[] high = new int[rows];
    Arrays.fill(low, Integer.MAX_VALUE);
    Arrays.fill(high, -1);
    for (int k = 0; k < coarse.length(); k++) {
      int columnLow = 2 * coarse.columns()[k];
      int columnHigh = Math.min(columnLow + 1, columns - 1);
      for (int row = 2 * coarse.rows()[k]; row <= Math.min(2 * coarse.rows()[k] + 1, rows - 1);
          row++) {
        low[row] = Math.min(low[row], columnLow);
        high[row] = Math.max(high[row], columnHigh);
      }
    }
    // ranges rise monotonically with the row, so the widest neighbours are the outermost rows
    int[] expandedLow = new int[rows];
    int[] expandedHigh = new int[rows];
    for (int row = 0; row < rows; row++) {
      expandedLow[row] = Math.max(0, low[Math.max(0, row - radius)] - radius);
      expandedHigh[row] = Math.min(columns - 1, high[Math.min(rows - 1, row + radius)] + radius);
    }
    return new SearchWindow(expandedLow, expandedHigh);
  }

  int rows() {
    return low.length;
  }
}
