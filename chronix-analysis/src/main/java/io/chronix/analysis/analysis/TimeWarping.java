package io.chronix.analysis.analysis;

/**
 * Dynamic time warping with absolute-difference cost, exact and as FastDTW (Salvador and Chan,
 * "FastDTW: Toward Accurate Dynamic Time Warping in Linear Time and Space", 2007). FastDTW makes
 * comparisons of long series affordable: it solves the problem at half resolution, projects the
 * path back and only searches the cells near it, so its distance is that of a valid warp path and
 * never below the exact DTW distance.
 */
public final class TimeWarping {

  private TimeWarping() {}

  /** Exact DTW over the full cost matrix. */
  public static WarpPath exact(double[] x, double[] y) {
    requireValues(x, y);
    return constrained(x, y, SearchWindow.full(x.length, y.length));
  }

  /** FastDTW; with a radius of at least the longer length it equals {@link #exact}. */
  public static WarpPath fast(double[] x, double[] y, int radius) {
    requireValues(x, y);
    if (radius < 0) {
      throw new IllegalArgumentException("radius must not be negative, got " + radius);
    }
    int smallest = radius + 2;
    if (x.length <= smallest || y.length <= smallest) {
      return exact(x, y);
    }
    WarpPath coarse = fast(halve(x), halve(y), radius);
    return constrained(x, y, SearchWindow.projected(coarse, x.length, y.length, radius));
  }

  private static void requireValues(double[] x, double[] y) {
    if (x.length == 0 || y.length == 0) {
      throw new IllegalArgumentException("cannot warp an empty series");
    }
  }

  /** Averages neighbouring pairs; an odd last value stays on its own. */
  static double[] halve(double[] values) {
    double[] half = new double[(values.length + 1) / 2];
    for (int i = 0; i < half.length; i++) {
      int first = 2 * i;
      half[i] = first + 1 < values.length ? (values[first] + values[first + 1]) / 2 : values[first];
    }
    return half;
  }

  static WarpPath constrained(double[] x, double[] y, SearchWindow window) {
    int rows = x.length;
    double[][] cost = new double[rows][];
    for (int i = 0; i < rows; i++) {
      int low = window.low[i];
      cost[i] = new double[window.high[i] - low + 1];
      for (int j = low; j <= window.high[i]; j++) {
        double step = Math.abs(x[i] - y[j]);
        double best;
        if (i == 0 && j == 0) {
          best = 0;
        } else {
          best = Math.min(cell(cost, window, i - 1, j - 1),
              Math.min(cell(cost, window, i - 1, j), cell(cost, window, i, j - 1)));
        }
        cost[i][j - low] = step + best;
      }
    }
    return backtrack(cost, window, y.length);
  }

  private static double cell(double[][] cost, SearchWindow window, int i, int j) {
    if (i < 0 || j < window.low[i] || j > window.high[i]) {
      return Double.POSITIVE_INFINITY;
    }
    return cost[i][j - window.low[i]];
  }

  private static WarpPath backtrack(double[][] cost, SearchWindow window, int columns) {
    int i = cost.length - 1;
    int j = columns - 1;
    double distance = cell(cost, window, i, j);
    int[] rows = new int[cost.length + columns];
    int[] cols = new int[cost.length + columns];
    int length = 0;
    while (true) {
      rows[length] = i;
      cols[length] = j;
      length++;
      if (i == 0 && j == 0) {
        break;
      }
      double diagonal = cell(cost, window, i - 1, j - 1);
      double up = cell(cost, window, i - 1, j);
      double left = cell(cost, window, i, j - 1);
      if (diagonal <= up && diagonal <= left) {
        i--;
        j--;
      } else if (up <= left) {
        i--;
      } else {
        j--;
      }
    }
    int[] pathRows = new int[length];
    int[] pathColumns = new int[length];
    for (int k = 0; k < length; k++) {
      pathRows[k] = rows[length - 1 - k];
      pathColumns[k] = cols[length - 1 - k];
    }
    return new WarpPath(distance, pathRows, pathColumns);
  }
}
