package io.chronix.ingest.protocol;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesHandle;
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

  // The same by handle: a parser that keeps one handle a series across requests gives it, and a
  // sink that can use what the handle remembers (the batch) takes it; the others take its key.

  default void accept(SeriesHandle series, long timestampNanos, double value) throws IOException {
    accept(series.key(), timestampNanos, value);
  }

  default void acceptLong(SeriesHandle series, long timestampNanos, long value) throws IOException {
    acceptLong(series.key(), timestampNanos, value);
  }

  default void acceptBoolean(SeriesHandle series, long timestampNanos, boolean value) throws IOException {
    acceptBoolean(series.key(), timestampNanos, value);
  }

  default void acceptArray(SeriesHandle series, long timestampNanos, double[] value) throws IOException {
    acceptArray(series.key(), timestampNanos, value);
  }

  default void acceptText(SeriesHandle series, long timestampNanos, String value) throws IOException {
    acceptText(series.key(), timestampNanos, value);
  }
}
