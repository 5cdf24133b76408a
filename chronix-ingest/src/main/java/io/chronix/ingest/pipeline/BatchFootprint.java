package io.chronix.ingest.pipeline;

import io.chronix.ingest.buffer.BufferMemory;
import io.chronix.ingest.buffer.SeriesBuffers;

/**
 * What a batch would add to the buffers before it is taken: memory (its points, and the keys and
 * buffers of series not yet active) and new active series. Checked against the budget first, so
 * that a batch that does not fit is refused whole.
 */
record BatchFootprint(long bytes, int newSeries) {

  static BatchFootprint of(PointBatch batch, SeriesBuffers.Resolved resolved) {
    long bytes = 0;
    for (int s = 0; s < batch.seriesCount(); s++) {
      if (!resolved.isActive(s)) {
        bytes += BufferMemory.series(batch.series(s));
      }
    }
    for (int i = 0; i < batch.size(); i++) {
      bytes += BufferMemory.point(batch.key(i).valueType(), batch, i);
    }
    return new BatchFootprint(bytes, resolved.newSeries());
  }
}
