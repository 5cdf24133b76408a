package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;

/** Receives the buffered points of one series when its buffer is cut into a chunk. */
@FunctionalInterface
public interface ChunkSink {

  /**
   * Stores the points, which it may reorder in place; returns them as stored (a lossy rule may
   * have changed them), which is what searches will show. On failure the caller keeps the points
   * buffered.
   */
  Points accept(SeriesKey key, Points points) throws IOException;
}
