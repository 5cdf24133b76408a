package io.chronix.analysis.promql.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/** The functions that map each sample's value on its own: abs, exp, ln, the trigonometric ones... */
final class MathFunctions {

  private static final Map<String, DoubleUnaryOperator> FUNCTIONS = new HashMap<>();

  static {
    FUNCTIONS.put("abs", Math::abs);
    FUNCTIONS.put("ceil", Math::ceil);
    FUNCTIONS.put("floor", Math::floor);
    FUNCTIONS.put("exp", Math::exp);
    FUNCTIONS.put("sqrt", Math::sqrt);
    FUNCTIONS.put("ln", Math::log);
    FUNCTIONS.put("log2", MathFunctions::log2);
    FUNCTIONS.put("log10", Math::log10);
    FUNCTIONS.put("sin", Math::sin);
    FUNCTIONS.put("cos", Math::cos);
    FUNCTIONS.put("tan", Math::tan);
    FUNCTIONS.put("asin", Math::asin);
    FUNCTIONS.put("acos", Math::acos);
    FUNCTIONS.put("atan", Math::atan);
    FUNCTIONS.put("sinh", Math::sinh);
    FUNCTIONS.put("cosh", Math::cosh);
    FUNCTIONS.put("tanh", Math::tanh);
    FUNCTIONS.put("asinh", MathFunctions::asinh);
    FUNCTIONS.put("acosh", MathFunctions::acosh);
    FUNCTIONS.put("atanh", MathFunctions::atanh);
    FUNCTIONS.put("rad", v -> v * Math.PI / 180);
    FUNCTIONS.put("deg", v -> v * 180 / Math.PI);
    FUNCTIONS.put("sgn", v -> v < 0 ? -1 : v > 0 ? 1 : v);
  }

  private MathFunctions() {}

  static DoubleUnaryOperator named(String name) {
    return FUNCTIONS.get(name);
  }

  /** Exact powers of two where Go's math.Log2 gives them exactly. */
  static double log2(double v) {
    if (v > 0 && !Double.isInfinite(v)) {
      int exponent = Math.getExponent(v);
      if (v == Math.scalb(1.0, exponent)) {
        return exponent;
      }
    }
    return Math.log(v) / Math.log(2);
  }

  private static double asinh(double x) {
    if (Double.isInfinite(x) || Double.isNaN(x) || x == 0) {
      return x;
    }
    double abs = Math.abs(x);
    double result = Math.log(abs + Math.sqrt(abs * abs + 1));
    return x < 0 ? -result : result;
  }

  private static double acosh(double x) {
    if (x < 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return 0;
    }
    return Math.log(x + Math.sqrt(x * x - 1));
  }

  private static double atanh(double x) {
    if (x < -1 || x > 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (x == -1) {
      return Double.NEGATIVE_INFINITY;
    }
    return 0.5 * Math.log((1 + x) / (1 - x));
  }
}
