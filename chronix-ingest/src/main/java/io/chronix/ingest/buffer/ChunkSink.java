package io.chronix.ingest.buffer;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Receives the buffered points of one series when its buffer is cut into a chunk. */
@FunctionalInterface
public interface ChunkSink {

  /**
   * Stores the points, which it may reorder in place; returns them as stored (a lossy rule may
   * have changed them), which is what searches will show. On failure the caller keeps the points
   * buffered.
   */
  Points accept(SeriesKey key, Points points) throws IOException;

  /**
   * Stores the points of several series together (the flusher's rounds: one store request for
   * many small chunks instead of one each); returns them as stored, in the same order. All or
   * nothing: on failure the caller keeps every one of them buffered.
   */
  default List<Points> acceptAll(List<SeriesKey> keys, List<Points> points) throws IOException {
    List<Points> stored = new ArrayList<>(points.size());
    for (int i = 0; i < keys.size(); i++) {
      stored.add(accept(keys.get(i), points.get(i)));
    }
    return stored;
  }
}
