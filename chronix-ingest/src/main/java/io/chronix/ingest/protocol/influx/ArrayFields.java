package io.chronix.ingest.protocol.influx;

import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The array elements among one line's fields: {@code usage[0]=0.5,usage[1]=0.25} is the array
 * {@code [0.5, 0.25]} of the field {@code usage} (docs/ingest.md, "Array values"). Elements are
 * numbers (floats or integers), their indexes (decimal, no leading zero) run from 0 without gaps or
 * repeats in any order, at most {@link #MAX_ELEMENTS} of them: line protocol has no array type, so this is a naming
 * convention, and anything outside it is an error rather than a guess.
 */
final class ArrayFields {

  static final int MAX_ELEMENTS = io.chronix.core.series.Points.MAX_ARRAY_LENGTH;

  private final Map<String, List<double[]>> elements = new LinkedHashMap<>();

  /**
   * Takes the field if its name has the form {@code name[index]}; false leaves it a field of its
   * own.
   */
  boolean take(String field, ValueType type, double value) {
    int open = field.lastIndexOf('[');
    if (open <= 0 || field.charAt(field.length() - 1) != ']' || open == field.length() - 2
        || (field.charAt(open + 1) == '0' && open + 2 < field.length() - 1)) {
      return false; // no digits, or a leading zero: not an index, part of a plain field's name
    }
    int index = 0;
    for (int i = open + 1; i < field.length() - 1; i++) {
      char c = field.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
      index = index * 10 + (c - '0');
      if (index >= MAX_ELEMENTS) {
        throw new IllegalArgumentException("field '" + field + "': array index beyond the largest, "
            + (MAX_ELEMENTS - 1));
      }
    }
    if (type != ValueType.DOUBLE && type != ValueType.LONG) {
      throw new IllegalArgumentException("field '" + field + "': array elements are numbers, not "
          + type.typeName() + " values");
    }
    elements.computeIfAbsent(field.substring(0, open), k -> new ArrayList<>()).add(new double[] {index, value});
    return true;
  }

  /** The arrays, by field, in the order of their first element on the line. */
  Map<String, double[]> arrays() {
    Map<String, double[]> arrays = new LinkedHashMap<>();
    for (Map.Entry<String, List<double[]>> field : elements.entrySet()) {
      List<double[]> given = field.getValue();
      double[] array = new double[given.size()];
      boolean[] seen = new boolean[given.size()];
      for (double[] element : given) {
        int index = (int) element[0];
        if (index >= array.length) {
          throw new IllegalArgumentException("array field '" + field.getKey() + "' has " + array.length
              + " elements but an index " + index + ": indexes run from 0 without gaps");
        }
        if (seen[index]) {
          throw new IllegalArgumentException("array field '" + field.getKey() + "' gives element " + index + " twice");
        }
        seen[index] = true;
        array[index] = element[1];
      }
      arrays.put(field.getKey(), array);
    }
    return arrays;
  }
}
