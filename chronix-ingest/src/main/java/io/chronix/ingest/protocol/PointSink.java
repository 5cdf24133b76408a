package io.chronix.ingest.protocol;

import io.chronix.core.series.SeriesKey;
import java.io.IOException;

/** Where a protocol parser delivers the points of the lines it accepted. */
@FunctionalInterface
public interface PointSink {

  void accept(SeriesKey key, long timestampNanos, double value) throws IOException;
}
