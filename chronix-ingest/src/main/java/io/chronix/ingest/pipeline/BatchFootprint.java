package io.chronix.ingest.pipeline;

import io.chronix.core.series.ValueType;
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
    // numeric points cost the same each, so only strings and arrays are counted point by point
    boolean allNumeric = true;
    for (int s = 0; s < batch.seriesCount(); s++) {
      ValueType type = batch.seriesType(s);
      allNumeric &= type != ValueType.STRING && type != ValueType.ARRAY;
      if (!resolved.isActive(s)) {
        bytes += BufferMemory.series(batch.series(s));
      }
    }
    if (allNumeric) {
      return new BatchFootprint(bytes + BufferMemory.NUMERIC_POINT * batch.size(), resolved.newSeries());
    }
    for (int i = 0; i < batch.size(); i++) {
      bytes += BufferMemory.point(batch.seriesType(batch.seriesOf(i)), batch, i);
    }
    return new BatchFootprint(bytes, resolved.newSeries());
  }
}
