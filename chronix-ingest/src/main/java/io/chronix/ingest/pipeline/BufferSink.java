package io.chronix.ingest.pipeline;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesBuffers;

/** Puts a logged batch's points into the series buffers, noting the log segment they came from. */
final class BufferSink {

  private BufferSink() {}

  /** Adds every point of the batch, a run of one series' points at a time. */
  static void addAll(PointBatch batch, SeriesBuffers buffers, long segment) {
    int from = 0;
    while (from < batch.size()) {
      SeriesKey key = batch.key(from);
      int to = from + 1;
      while (to < batch.size() && batch.key(to) == key) {
        to++;
      }
      buffers.addRun(key, batch, from, to, segment);
      from = to;
    }
  }
}
