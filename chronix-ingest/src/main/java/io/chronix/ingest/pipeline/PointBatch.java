package io.chronix.ingest.pipeline;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.PointColumns;
import io.chronix.ingest.protocol.PointSink;
import java.util.Arrays;

/**
 * The points of one request (or one read from a socket), collected before anything is stored, so
 * that a request is logged and applied as a unit. A point's value type is its series' type.
 */
public final class PointBatch implements PointSink, PointColumns {

  private SeriesKey[] keys;
  private long[] timestamps;
  /** doubles; booleans as 0 and 1 */
  private double[] values;
  /** allocated with the first long */
  private long[] longs;
  /** allocated with the first string */
  private String[] texts;
  /** allocated with the first array */
  private double[][] arrays;
  private int size;

  public PointBatch() {
    this(64);
  }

  public PointBatch(int capacity) {
    keys = new SeriesKey[Math.max(1, capacity)];
    timestamps = new long[keys.length];
    values = new double[keys.length];
  }

  private int next(SeriesKey key, long timestampNanos) {
    if (size == keys.length) {
      int capacity = size * 2;
      keys = Arrays.copyOf(keys, capacity);
      timestamps = Arrays.copyOf(timestamps, capacity);
      values = Arrays.copyOf(values, capacity);
      if (longs != null) {
        longs = Arrays.copyOf(longs, capacity);
      }
      if (texts != null) {
        texts = Arrays.copyOf(texts, capacity);
      }
      if (arrays != null) {
        arrays = Arrays.copyOf(arrays, capacity);
      }
    }
    keys[size] = key;
    timestamps[size] = timestampNanos;
    return size++;
  }

  @Override
  public void accept(SeriesKey key, long timestampNanos, double value) {
    int index = next(key, timestampNanos); // first: it may replace the arrays
    values[index] = value;
  }

  @Override
  public void acceptLong(SeriesKey key, long timestampNanos, long value) {
    int index = next(key, timestampNanos);
    if (longs == null) {
      longs = new long[keys.length];
    }
    longs[index] = value;
  }

  @Override
  public void acceptBoolean(SeriesKey key, long timestampNanos, boolean value) {
    int index = next(key, timestampNanos);
    values[index] = value ? 1 : 0;
  }

  @Override
  public void acceptText(SeriesKey key, long timestampNanos, String value) {
    int index = next(key, timestampNanos);
    if (texts == null) {
      texts = new String[keys.length];
    }
    texts[index] = value;
  }

  @Override
  public void acceptArray(SeriesKey key, long timestampNanos, double[] value) {
    int index = next(key, timestampNanos);
    if (arrays == null) {
      arrays = new double[keys.length][];
    }
    arrays[index] = value;
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

  @Override
  public long timestamp(int index) {
    return timestamps[index];
  }

  /** The value of a double or boolean (0, 1) point. */
  @Override
  public double value(int index) {
    return values[index];
  }

  @Override
  public long longValue(int index) {
    return longs[index];
  }

  @Override
  public String text(int index) {
    return texts[index];
  }

  @Override
  public double[] array(int index) {
    return arrays[index];
  }

  /** Adds point {@code index} to another batch, with its value as its series' type has it. */
  public void copyTo(int index, PointBatch sink) {
    SeriesKey key = keys[index];
    switch (key.valueType()) {
      case LONG -> sink.acceptLong(key, timestamps[index], longs[index]);
      case BOOLEAN -> sink.acceptBoolean(key, timestamps[index], values[index] != 0);
      case STRING -> sink.acceptText(key, timestamps[index], texts[index]);
      case ARRAY -> sink.acceptArray(key, timestamps[index], arrays[index]);
      default -> sink.accept(key, timestamps[index], values[index]);
    }
  }

  public void clear() {
    Arrays.fill(keys, 0, size, null);
    if (texts != null) {
      Arrays.fill(texts, 0, size, null);
    }
    if (arrays != null) {
      Arrays.fill(arrays, 0, size, null);
    }
    size = 0;
  }
}
