package io.chronix.ingest.pipeline;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.protocol.PointSink;

/** Puts a logged batch's points into the series buffers, noting the log segment they came from. */
final class BufferSink implements PointSink {

  private final SeriesBuffers buffers;
  private final long segment;

  BufferSink(SeriesBuffers buffers, long segment) {
    this.buffers = buffers;
    this.segment = segment;
  }

  /** Adds every point of the batch. */
  static void addAll(PointBatch batch, SeriesBuffers buffers, long segment) throws java.io.IOException {
    BufferSink sink = new BufferSink(buffers, segment);
    for (int i = 0; i < batch.size(); i++) {
      batch.copyTo(i, sink);
    }
  }

  @Override
  public void accept(SeriesKey key, long timestampNanos, double value) {
    buffers.add(key, timestampNanos, value, segment);
  }

  @Override
  public void acceptLong(SeriesKey key, long timestampNanos, long value) {
    buffers.addLong(key, timestampNanos, value, segment);
  }

  @Override
  public void acceptBoolean(SeriesKey key, long timestampNanos, boolean value) {
    buffers.add(key, timestampNanos, value ? 1 : 0, segment);
  }

  @Override
  public void acceptText(SeriesKey key, long timestampNanos, String value) {
    buffers.addText(key, timestampNanos, value, segment);
  }
}
