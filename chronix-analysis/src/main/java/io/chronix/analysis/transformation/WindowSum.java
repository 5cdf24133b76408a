package io.chronix.analysis.transformation;

/** The running sum of a sliding window of values, skipping NaN so that one gap does not spread. */
final class WindowSum {

  private double sum;
  private int count;

  void add(double value) {
    if (!Double.isNaN(value)) {
      sum += value;
      count++;
    }
  }

  void remove(double value) {
    if (!Double.isNaN(value)) {
      sum -= value;
      count--;
      if (count == 0) {
        sum = 0; // drop accumulated rounding error whenever the window empties
      }
    }
  }

  double average() {
    return count == 0 ? Double.NaN : sum / count;
  }
}
