package io.chronix.analysis.analysis;

/**
 * An alignment of two sequences: cells (rows[k], columns[k]) from (0,0) to the last cells, and
 * the summed absolute differences along it.
 */
public record WarpPath(double distance, int[] rows, int[] columns) {

  public int length() {
    return rows.length;
  }
}
