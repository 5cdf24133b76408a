package io.chronix.ingest.pipeline;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.buffer.BufferMemory;
import io.chronix.ingest.buffer.SeriesBuffers;
import java.util.HashSet;
import java.util.Set;

/**
 * What a batch would add to the buffers before it is taken: memory (its points, and the keys and
 * buffers of series not yet active) and new active series. Checked against the budget first, so
 * that a batch that does not fit is refused whole.
 */
record BatchFootprint(long bytes, int newSeries) {

  static BatchFootprint of(PointBatch batch, SeriesBuffers buffers) {
    long bytes = 0;
    int newSeries = 0;
    Set<SeriesKey> seen = new HashSet<>();
    SeriesKey previous = null;
    ValueType type = null;
    for (int i = 0; i < batch.size(); i++) {
      SeriesKey key = batch.key(i);
      if (key != previous) { // batches come in runs of one series: look the series up once a run
        type = key.valueType();
        if (seen.add(key) && !buffers.isActive(key)) {
          newSeries++;
          bytes += BufferMemory.series(key);
        }
        previous = key;
      }
      bytes += BufferMemory.point(type, batch, i);
    }
    return new BatchFootprint(bytes, newSeries);
  }
}
