package io.chronix.ingest.pipeline;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.PointSink;
import java.util.Arrays;

/**
 * The points of one request (or one read from a socket), collected before anything is stored, so
 * that a request is logged and applied as a unit.
 */
public final class PointBatch implements PointSink {

  private SeriesKey[] keys;
  private long[] timestamps;
  private double[] values;
  private int size;

  public PointBatch() {
    this(64);
  }

  public PointBatch(int capacity) {
    keys = new SeriesKey[Math.max(1, capacity)];
    timestamps = new long[keys.length];
    values = new double[keys.length];
  }

  @Override
  public void accept(SeriesKey key, long timestampNanos, double value) {
    if (size == keys.length) {
      int capacity = size * 2;
      keys = Arrays.copyOf(keys, capacity);
      timestamps = Arrays.copyOf(timestamps, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    keys[size] = key;
    timestamps[size] = timestampNanos;
    values[size] = value;
    size++;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public SeriesKey key(int index) {
    return keys[index];
  }

  public long timestamp(int index) {
    return timestamps[index];
  }

  public double value(int index) {
    return values[index];
  }

  public void clear() {
    Arrays.fill(keys, 0, size, null);
    size = 0;
  }
}
