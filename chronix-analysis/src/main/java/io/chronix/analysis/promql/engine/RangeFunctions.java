package io.chronix.analysis.promql.engine;

import java.util.HashMap;
import java.util.Map;

/**
 * PromQL's functions over range vectors, one value per series and step from the samples of that
 * step's window. Semantics after Prometheus 3 (promql/functions.go): extrapolated rates, Kahan
 * sums, least-squares slopes.
 */
final class RangeFunctions {

  @FunctionalInterface
  interface RangeFunction {
    /** The value for the window, or {@link Window#NO_VALUE}; never called on an empty window. */
    double apply(Window w);
  }

  private static final Map<String, RangeFunction> FUNCTIONS = new HashMap<>();

  static {
    FUNCTIONS.put("rate", ExtrapolatedRate.RATE);
    FUNCTIONS.put("increase", ExtrapolatedRate.INCREASE);
    FUNCTIONS.put("delta", ExtrapolatedRate.DELTA);
    FUNCTIONS.put("irate", w -> instantValue(w, true));
    FUNCTIONS.put("idelta", w -> instantValue(w, false));
    FUNCTIONS.put("avg_over_time", RangeFunctions::average);
    FUNCTIONS.put("sum_over_time", RangeFunctions::sum);
    FUNCTIONS.put("count_over_time", w -> w.size());
    FUNCTIONS.put("min_over_time", w -> extreme(w, false, false));
    FUNCTIONS.put("max_over_time", w -> extreme(w, true, false));
    FUNCTIONS.put("ts_of_min_over_time", w -> extreme(w, false, true));
    FUNCTIONS.put("ts_of_max_over_time", w -> extreme(w, true, true));
    FUNCTIONS.put("last_over_time", Window::last);
    FUNCTIONS.put("first_over_time", Window::first);
    FUNCTIONS.put("ts_of_last_over_time", w -> w.lastTime() / 1000.0);
    FUNCTIONS.put("ts_of_first_over_time", w -> w.firstTime() / 1000.0);
    FUNCTIONS.put("present_over_time", w -> 1);
    FUNCTIONS.put("absent_over_time", w -> 1);
    FUNCTIONS.put("stddev_over_time", w -> Math.sqrt(variance(w)));
    FUNCTIONS.put("stdvar_over_time", RangeFunctions::variance);
    FUNCTIONS.put("quantile_over_time", w -> Quantiles.of(w.scalars[0], w.copyValues(), w.size()));
    FUNCTIONS.put("mad_over_time", RangeFunctions::medianAbsoluteDeviation);
    FUNCTIONS.put("changes", RangeFunctions::changes);
    FUNCTIONS.put("resets", RangeFunctions::resets);
    FUNCTIONS.put("deriv", RangeFunctions::deriv);
    FUNCTIONS.put("predict_linear", RangeFunctions::predictLinear);
    FUNCTIONS.put("double_exponential_smoothing", RangeFunctions::doubleExponentialSmoothing);
  }

  private RangeFunctions() {}

  static RangeFunction named(String name) {
    return FUNCTIONS.get(name);
  }

  static boolean has(String name) {
    return FUNCTIONS.containsKey(name);
  }

  /** Whether the function keeps the input's metric name (it returns a sample of the input). */
  static boolean keepsName(String name) {
    return name.equals("last_over_time") || name.equals("first_over_time");
  }

  /** irate and idelta: from the last two samples. */
  static double instantValue(Window w, boolean isRate) {
    int n = w.size();
    if (n < 2) {
      return Window.NO_VALUE;
    }
    double last = w.v(n - 1);
    double previous = w.v(n - 2);
    long interval = w.t(n - 1) - w.t(n - 2);
    if (interval == 0) {
      return Window.NO_VALUE;
    }
    double result = last;
    if (!isRate || !(last < previous)) {
      result = last - previous;
    }
    if (isRate) {
      result /= interval / 1000.0;
    }
    return result;
  }

  /** The mean by Kahan summation, switching to an incremental mean where the sum would overflow. */
  static double average(Window w) {
    int n = w.size();
    double sum = w.v(0);
    double count = 1;
    double mean = 0;
    double c = 0;
    boolean incremental = false;
    for (int i = 1; i < n; i++) {
      double f = w.v(i);
      count = i + 1;
      if (!incremental) {
        double next = sum + f;
        if (!Double.isInfinite(next)) {
          c = KahanSum.compensation(f, sum, c);
          sum = next;
          continue;
        }
        incremental = true;
        mean = sum / (count - 1);
        c /= count - 1;
      }
      double q = (count - 1) / count;
      double addend = f / count;
      double scaled = q * mean;
      c = KahanSum.compensation(addend, scaled, q * c);
      mean = scaled + addend;
    }
    if (incremental) {
      return mean + c;
    }
    return sum / count + c / count;
  }

  static double sum(Window w) {
    KahanSum sum = new KahanSum();
    for (int i = 0; i < w.size(); i++) {
      sum.add(w.v(i));
    }
    return sum.value();
  }

  /** max/min_over_time (or the timestamp of the extreme); NaN only wins when nothing else is there. */
  static double extreme(Window w, boolean max, boolean timestamp) {
    double best = w.v(0);
    long at = w.t(0);
    for (int i = 0; i < w.size(); i++) {
      double v = w.v(i);
      boolean better;
      if (timestamp) {
        better = (max ? v >= best : v <= best) || Double.isNaN(best);
      } else {
        better = (max ? v > best : v < best) || Double.isNaN(best);
      }
      if (better) {
        best = v;
        at = w.t(i);
      }
    }
    return timestamp ? at / 1000.0 : best;
  }

  /** Population variance, Welford's method with compensated sums. */
  static double variance(Window w) {
    double count = 0;
    double mean = 0;
    double cMean = 0;
    double aux = 0;
    double cAux = 0;
    for (int i = 0; i < w.size(); i++) {
      double f = w.v(i);
      count++;
      double delta = f - (mean + cMean);
      double step = delta / count;
      cMean = KahanSum.compensation(step, mean, cMean);
      mean = mean + step;
      double spread = delta * (f - (mean + cMean));
      cAux = KahanSum.compensation(spread, aux, cAux);
      aux = aux + spread;
    }
    return (aux + cAux) / count;
  }

  static double medianAbsoluteDeviation(Window w) {
    double[] values = w.copyValues();
    for (double v : values) {
      if (Double.isNaN(v)) {
        return Double.NaN;
      }
    }
    double median = Quantiles.of(0.5, values, values.length);
    for (int i = 0; i < values.length; i++) {
      values[i] = Math.abs(values[i] - median);
    }
    return Quantiles.of(0.5, values, values.length);
  }

  static double changes(Window w) {
    int changes = 0;
    for (int i = 1; i < w.size(); i++) {
      double current = w.v(i);
      double previous = w.v(i - 1);
      if (current != previous && !(Double.isNaN(current) && Double.isNaN(previous))) {
        changes++;
      }
    }
    return changes;
  }

  static double resets(Window w) {
    int resets = 0;
    for (int i = 1; i < w.size(); i++) {
      if (w.v(i) < w.v(i - 1)) {
        resets++;
      }
    }
    return resets;
  }

  static double deriv(Window w) {
    if (w.size() < 2) {
      return Window.NO_VALUE;
    }
    return linearRegression(w, w.firstTime())[0];
  }

  static double predictLinear(Window w) {
    if (w.size() < 2) {
      return Window.NO_VALUE;
    }
    double[] fit = linearRegression(w, w.evalTime);
    return fit[0] * w.scalars[0] + fit[1];
  }

  /** Least-squares slope and the intercept at {@code interceptTime}, with compensated sums. */
  static double[] linearRegression(Window w, long interceptTime) {
    double n = 0;
    KahanSum sumX = new KahanSum();
    KahanSum sumY = new KahanSum();
    KahanSum sumXY = new KahanSum();
    KahanSum sumX2 = new KahanSum();
    double initY = w.v(0);
    boolean constY = true;
    for (int i = 0; i < w.size(); i++) {
      double y = w.v(i);
      if (constY && i > 0 && y != initY) {
        constY = false;
      }
      n += 1;
      double x = (w.t(i) - interceptTime) / 1e3;
      sumX.add(x);
      sumY.add(y);
      sumXY.add(x * y);
      sumX2.add(x * x);
    }
    if (constY) {
      if (Double.isInfinite(initY)) {
        return new double[] {Double.NaN, Double.NaN};
      }
      return new double[] {0, initY};
    }
    double sx = sumX.sum + sumX.compensation;
    double sy = sumY.sum + sumY.compensation;
    double sxy = sumXY.sum + sumXY.compensation;
    double sx2 = sumX2.sum + sumX2.compensation;
    double covXY = sxy - sx * sy / n;
    double varX = sx2 - sx * sx / n;
    double slope = covXY / varX;
    double intercept = sy / n - slope * sx / n;
    return new double[] {slope, intercept};
  }

  static double doubleExponentialSmoothing(Window w) {
    double sf = w.scalars[0];
    double tf = w.scalars[1];
    if (sf <= 0 || sf >= 1) {
      throw PromQlException.execution(String.format("invalid smoothing factor. Expected: 0 < sf < 1, got: %f", sf));
    }
    if (tf <= 0 || tf >= 1) {
      throw PromQlException.execution(String.format("invalid trend factor. Expected: 0 < tf < 1, got: %f", tf));
    }
    int l = w.size();
    if (l < 2) {
      return Window.NO_VALUE;
    }
    double s0 = 0;
    double s1 = w.v(0);
    double b = w.v(1) - w.v(0);
    for (int i = 1; i < l; i++) {
      double x = sf * w.v(i);
      b = i - 1 == 0 ? b : tf * (s1 - s0) + (1 - tf) * b;
      double y = (1 - sf) * (s1 + b);
      s0 = s1;
      s1 = x + y;
    }
    return s1;
  }
}
