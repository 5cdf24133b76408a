package io.chronix.ingest.buffer;

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
}
