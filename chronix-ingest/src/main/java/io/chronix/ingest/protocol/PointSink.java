package io.chronix.ingest.protocol;

import io.chronix.core.series.SeriesKey;
import java.io.IOException;

/** Where a protocol parser delivers the points of the lines it accepted. */
@FunctionalInterface
public interface PointSink {

  void accept(SeriesKey key, long timestampNanos, double value) throws IOException;

  /** A point of a {@code long} series (exact integers). */
  default void acceptLong(SeriesKey key, long timestampNanos, long value) throws IOException {
    throw new IllegalStateException("this sink stores numbers as doubles only");
  }

  /** A point of a {@code boolean} series. */
  default void acceptBoolean(SeriesKey key, long timestampNanos, boolean value) throws IOException {
    throw new IllegalStateException("this sink stores numbers as doubles only");
  }

  /** A point of an {@code array} series; the sink keeps the array, so the caller must not change it. */
  default void acceptArray(SeriesKey key, long timestampNanos, double[] value) throws IOException {
    throw new IllegalStateException("this sink stores numbers as doubles only");
  }

  /** A point of a {@code string} series. */
  default void acceptText(SeriesKey key, long timestampNanos, String value) throws IOException {
    throw new IllegalStateException("this sink stores numbers as doubles only");
  }
}
