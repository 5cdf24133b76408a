package io.chronix.analysis.promql.ast;

import static io.chronix.analysis.promql.ast.ValueType.MATRIX;
import static io.chronix.analysis.promql.ast.ValueType.SCALAR;
import static io.chronix.analysis.promql.ast.ValueType.STRING;
import static io.chronix.analysis.promql.ast.ValueType.VECTOR;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The signatures of every function the parser accepts: Prometheus' (3.x, experimental ones
 * included) and the Chronix analyses and transformations under the {@code chronix_} prefix
 * (docs/promql.md). The engine holds the implementations, one per name here.
 */
public final class Functions {

  private static final Map<String, FunctionSignature> SIGNATURES = new TreeMap<>();

  static {
    for (String name : List.of("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "deg",
        "exp", "floor", "ln", "log10", "log2", "rad", "sgn", "sin", "sinh", "sqrt", "tan", "tanh", "timestamp", "sort",
        "sort_desc", "absent", "histogram_avg", "histogram_count", "histogram_sum", "histogram_stddev",
        "histogram_stdvar")) {
      define(name, VECTOR, 0, VECTOR);
    }
    for (String name : List.of("days_in_month", "day_of_month", "day_of_week", "day_of_year", "hour", "minute",
        "month", "year")) {
      define(name, VECTOR, 1, VECTOR);
    }
    for (String name : List.of("absent_over_time", "avg_over_time", "changes", "count_over_time", "delta", "deriv",
        "idelta", "increase", "irate", "last_over_time", "first_over_time", "mad_over_time", "max_over_time",
        "min_over_time", "present_over_time", "rate", "resets", "stddev_over_time", "stdvar_over_time",
        "sum_over_time", "ts_of_first_over_time", "ts_of_last_over_time", "ts_of_max_over_time",
        "ts_of_min_over_time")) {
      define(name, VECTOR, 0, MATRIX);
    }
    define("scalar", SCALAR, 0, VECTOR);
    define("vector", VECTOR, 0, SCALAR);
    define("clamp", VECTOR, 0, VECTOR, SCALAR, SCALAR);
    define("clamp_max", VECTOR, 0, VECTOR, SCALAR);
    define("clamp_min", VECTOR, 0, VECTOR, SCALAR);
    define("round", VECTOR, 1, VECTOR, SCALAR);
    define("quantile_over_time", VECTOR, 0, SCALAR, MATRIX);
    define("predict_linear", VECTOR, 0, MATRIX, SCALAR);
    define("double_exponential_smoothing", VECTOR, 0, MATRIX, SCALAR, SCALAR);
    define("histogram_quantile", VECTOR, 0, SCALAR, VECTOR);
    define("histogram_quantiles", VECTOR, -1, VECTOR, STRING, SCALAR);
    define("histogram_fraction", VECTOR, 0, SCALAR, SCALAR, VECTOR);
    define("label_replace", VECTOR, 0, VECTOR, STRING, STRING, STRING, STRING);
    define("label_join", VECTOR, -1, VECTOR, STRING, STRING, STRING);
    define("sort_by_label", VECTOR, -1, VECTOR, STRING);
    define("sort_by_label_desc", VECTOR, -1, VECTOR, STRING);
    for (String name : List.of("pi", "time", "step", "range", "start", "end")) {
      define(name, SCALAR, 0);
    }
    define("min_of", SCALAR, 0, SCALAR, SCALAR);
    define("max_of", SCALAR, 0, SCALAR, SCALAR);

    // Chronix analyses: one value per step from the window of each series.
    define("chronix_outlier", VECTOR, 0, MATRIX);
    define("chronix_trend", VECTOR, 0, MATRIX);
    define("chronix_frequency", VECTOR, 0, MATRIX, SCALAR, SCALAR);
    define("chronix_fastdtw", VECTOR, 0, MATRIX, MATRIX, SCALAR);
    define("chronix_sax_match", VECTOR, 0, MATRIX, STRING, SCALAR, SCALAR, SCALAR);
    define("chronix_seasonal_anomalies", VECTOR, 2, MATRIX, SCALAR, SCALAR, SCALAR);
    // Chronix transformations: a range vector of new points.
    define("chronix_outliers", MATRIX, 0, MATRIX);
    define("chronix_movavg", MATRIX, 0, MATRIX, SCALAR);
    define("chronix_smovavg", MATRIX, 0, MATRIX, SCALAR);
    define("chronix_vector", MATRIX, 0, MATRIX, SCALAR);
    define("chronix_downsample", MATRIX, 0, MATRIX, SCALAR, STRING);
    define("chronix_distinct", MATRIX, 0, MATRIX);
    define("chronix_derivative", MATRIX, 0, MATRIX);
    define("chronix_nnderivative", MATRIX, 0, MATRIX);
    define("chronix_top", MATRIX, 0, MATRIX, SCALAR);
    define("chronix_bottom", MATRIX, 0, MATRIX, SCALAR);
    define("chronix_timeshift", MATRIX, 0, MATRIX, SCALAR);
  }

  private Functions() {}

  private static void define(String name, ValueType returnType, int variadic, ValueType... args) {
    SIGNATURES.put(name, new FunctionSignature(name, List.of(args), variadic, returnType));
  }

  public static Optional<FunctionSignature> named(String name) {
    return Optional.ofNullable(SIGNATURES.get(name));
  }

  public static Map<String, FunctionSignature> all() {
    return Collections.unmodifiableMap(SIGNATURES);
  }
}
