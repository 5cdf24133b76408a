package io.chronix.analysis;

import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The functions of an array series, element by element (docs/query.md, "Array series"): element k
 * of the series is the double series of the points whose arrays have an element k; every
 * transformation and aggregation runs on each element series, aggregations then give one value an
 * element, and the transformed element series join again by timestamp into arrays (a position no
 * element series has at a timestamp, below one that has, is NaN). Analyses judge one series of
 * numbers and are refused: the element series are not independent measurements one could judge
 * alone (a histogram's buckets, a machine's CPUs).
 */
final class ElementWise {

  private ElementWise() {}

  static EvaluatedSeries evaluate(Points arrays, List<ChronixFunction> functions, References references) {
    for (ChronixFunction function : functions) {
      if (function instanceof Analysis) {
        throw refused(function.name());
      }
    }
    List<Points> elements = elements(arrays);
    List<EvaluatedSeries> evaluated = new ArrayList<>(elements.size());
    for (Points element : elements) {
      evaluated.add(FunctionEvaluator.evaluate(element, functions, references));
    }
    boolean transformed = functions.stream().anyMatch(function -> function instanceof Transformation);
    Points points = transformed ? join(evaluated) : arrays;
    List<FunctionValue> values = new ArrayList<>();
    int aggregation = 0;
    for (ChronixFunction function : functions) {
      if (function instanceof Aggregation) {
        List<Double> perElement = new ArrayList<>(evaluated.size());
        for (EvaluatedSeries element : evaluated) {
          perElement.add(element.values().get(aggregation).value());
        }
        values.add(FunctionValue.elementWise((Aggregation) function, perElement));
        aggregation++;
      }
    }
    return new EvaluatedSeries(points, List.copyOf(values));
  }

  /** The error of an analysis asked of an array series. */
  static FunctionQueryException refused(String analysis) {
    return new FunctionQueryException("analysis '" + analysis + "' does not apply to array series: it judges one "
        + "series of numbers; aggregations and transformations apply element by element");
  }

  /** Element k of every point that has one, as a series of doubles, for each position k. */
  static List<Points> elements(Points arrays) {
    int width = 0;
    for (int i = 0; i < arrays.size(); i++) {
      width = Math.max(width, arrays.array(i).length);
    }
    // sized by the points that have the position: one wide array must not reserve a point per position
    int[] having = new int[width];
    for (int i = 0; i < arrays.size(); i++) {
      for (int k = 0; k < arrays.array(i).length; k++) {
        having[k]++;
      }
    }
    List<Points> elements = new ArrayList<>(width);
    for (int k = 0; k < width; k++) {
      Points element = new Points(ValueType.DOUBLE, having[k]);
      for (int i = 0; i < arrays.size(); i++) {
        double[] array = arrays.array(i);
        if (array.length > k) {
          element.add(arrays.timestamp(i), array[k]);
        }
      }
      elements.add(element);
    }
    return elements;
  }

  /** The element series joined by timestamp into arrays. */
  static Points join(List<EvaluatedSeries> elements) {
    long[] timestamps = elements.stream()
        .flatMapToLong(element -> Arrays.stream(element.points().timestampArray(), 0, element.points().size()))
        .sorted().distinct().toArray();
    double[][] arrays = new double[timestamps.length][];
    int[] cursor = new int[elements.size()];
    for (int t = 0; t < timestamps.length; t++) {
      double[] array = new double[elements.size()];
      int length = 0;
      for (int k = 0; k < elements.size(); k++) {
        Points element = elements.get(k).points();
        if (cursor[k] < element.size() && element.timestamp(cursor[k]) == timestamps[t]) {
          array[k] = element.value(cursor[k]++);
          length = k + 1;
        } else {
          array[k] = Double.NaN;
        }
      }
      arrays[t] = length == array.length ? array : Arrays.copyOf(array, length);
    }
    return Points.wrapArrays(timestamps, arrays, timestamps.length);
  }
}
