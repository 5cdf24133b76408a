package io.chronix.ingest.buffer;

import io.chronix.core.codec.PackedPoints;
import io.chronix.core.series.ValueType;

/**
 * Points side by side in arrays, as a request's batch holds them: a run of one series' points is
 * appended to its buffer under one lock and one map lookup instead of one per point.
 */
public interface PointColumns {

  long timestamp(int index);

  /** The value of a double or boolean (0, 1) point. */
  double value(int index);

  long longValue(int index);

  String text(int index);

  /** The value of an array point. */
  double[] array(int index);

  /**
   * Appends numeric points {@code order[from]} .. {@code order[to - 1]} (or {@code from} ..
   * {@code to - 1} without an order) to {@code points}, whose type is their series'. Columns in
   * arrays override it with one call a run; this one asks for each point.
   */
  default void appendNumeric(PackedPoints points, int[] order, int from, int to) {
    boolean isLong = points.type() == ValueType.LONG;
    for (int i = from; i < to; i++) {
      int point = order == null ? i : order[i];
      if (isLong) {
        points.addLong(timestamp(point), longValue(point));
      } else {
        points.add(timestamp(point), value(point));
      }
    }
  }
}
