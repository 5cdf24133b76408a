package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * scale, divide, add and sub: one class because they differ only in the operation applied to
 * each value. Division really divides rather than multiplying by the reciprocal, so that results
 * are bit-identical to what a user computes by hand.
 */
public record ValueArithmetic(String name, List<String> arguments, DoubleUnaryOperator operation)
    implements Transformation {

  public ValueArithmetic {
    arguments = List.copyOf(arguments);
  }

  public static ValueArithmetic scale(double factor, List<String> arguments) {
    return new ValueArithmetic("scale", arguments, value -> value * factor);
  }

  public static ValueArithmetic divide(double divisor, List<String> arguments) {
    if (divisor == 0) {
      throw new IllegalArgumentException("divisor must not be 0");
    }
    return new ValueArithmetic("divide", arguments, value -> value / divisor);
  }

  public static ValueArithmetic add(double addend, List<String> arguments) {
    return new ValueArithmetic("add", arguments, value -> value + addend);
  }

  public static ValueArithmetic sub(double subtrahend, List<String> arguments) {
    return new ValueArithmetic("sub", arguments, value -> value - subtrahend);
  }

  @Override
  public Points apply(Points series) {
    int size = series.size();
    double[] values = new double[size];
    for (int i = 0; i < size; i++) {
      values[i] = operation.applyAsDouble(series.value(i));
    }
    return Points.wrap(Arrays.copyOf(series.timestampArray(), size), values, size);
  }
}
