package io.chronix.analysis.promql.engine;

/**
 * rate, increase and delta: the difference between a window's last and first sample (for counters
 * with resets added back), extrapolated towards the range's boundaries where samples stop near
 * them (Prometheus' {@code extrapolatedRate}).
 *
 * <p>Besides answering one window as every range function does, it walks all the windows of a
 * series in one loop ({@link #windows}). A {@code rate} over many counters is one call a window:
 * 360,000 for a thousand series over 6 hours at steps of a minute. In the quick compiler's code,
 * each went through the shared loop's interface call and a lambda, and worked its divisor out
 * again.
 */
final class ExtrapolatedRate implements RangeFunctions.RangeFunction {

  static final ExtrapolatedRate RATE = new ExtrapolatedRate(true, true);
  static final ExtrapolatedRate INCREASE = new ExtrapolatedRate(true, false);
  static final ExtrapolatedRate DELTA = new ExtrapolatedRate(false, false);

  private final boolean isCounter;
  private final boolean isRate;

  private ExtrapolatedRate(boolean isCounter, boolean isRate) {
    this.isCounter = isCounter;
    this.isRate = isRate;
  }

  @Override
  public double apply(Window w) {
    return value(w, w.rangeMillis / 1000.0);
  }

  /** The value at every step whose window holds a sample; {@code w} is over the series already. */
  void windows(Window w, long[] ends, StepSeries out) {
    double rangeSeconds = w.rangeMillis / 1000.0;
    for (int step = 0; step < ends.length; step++) {
      if (w.place(ends[step])) {
        double value = value(w, rangeSeconds);
        if (!Window.isNoValue(value)) {
          out.set(step, value);
        }
      }
    }
  }

  private double value(Window w, double rangeSeconds) {
    int n = w.size();
    if (n < 2) {
      return Window.NO_VALUE;
    }
    double first = w.first();
    double result = w.last() - first;
    if (isCounter && w.fallsInside()) {
      for (int i = 1; i < n; i++) {
        if (w.v(i) < w.v(i - 1)) {
          result += w.v(i - 1);
        }
      }
    }
    long firstTime = w.firstTime();
    long lastTime = w.lastTime();
    double durationToStart = (firstTime - w.rangeStart) / 1000.0;
    double durationToEnd = (w.rangeEnd - lastTime) / 1000.0;
    double sampledInterval = (lastTime - firstTime) / 1000.0;
    double averageBetweenSamples = sampledInterval / (n - 1);
    double threshold = averageBetweenSamples * 1.1;
    if (durationToStart >= threshold) {
      durationToStart = averageBetweenSamples * 0.5;
    }
    if (isCounter) {
      double durationToZero = durationToStart;
      if (result > 0 && first >= 0) {
        durationToZero = sampledInterval * (first / result);
      }
      if (durationToZero < durationToStart) {
        durationToStart = durationToZero;
      }
    }
    if (durationToEnd >= threshold) {
      durationToEnd = averageBetweenSamples * 0.5;
    }
    double factor = 1;
    if (sampledInterval != 0) {
      factor = (sampledInterval + durationToStart + durationToEnd) / sampledInterval;
    }
    if (isRate) {
      factor /= rangeSeconds;
    }
    return result * factor;
  }
}
