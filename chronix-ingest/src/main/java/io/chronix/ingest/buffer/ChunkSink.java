package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;

/** Receives the buffered points of one series when its buffer is cut into a chunk. */
@FunctionalInterface
public interface ChunkSink {

  /** On failure the caller keeps the points buffered. */
  void accept(SeriesKey key, Points points) throws IOException;
}
