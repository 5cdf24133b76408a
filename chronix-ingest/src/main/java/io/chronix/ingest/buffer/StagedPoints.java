package io.chronix.ingest.buffer;

import io.chronix.core.codec.PackedPoints;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import java.util.Arrays;

/**
 * Numeric points of one lock stripe set aside in arrival order, to be moved into their series'
 * buffers together ({@link SeriesBuffers}): a fleet sends each of ten thousand series a point a
 * request, and putting each point into its buffer at once cost some five cache misses a point
 * (buffer, points, two arrays and their ends); set aside, a request writes three arrays in order,
 * and each buffer is visited once for all the points of many requests. Like a buffer, the staging
 * pins the oldest log segment of its points until they are in their buffers.
 *
 * <p>Guarded by its stripe's lock; as a {@link SeriesBatch} only after {@link #group}.
 */
final class StagedPoints implements SeriesBatch {

  private SeriesHandle[] handles = new SeriesHandle[64];
  private long[] timestamps = new long[64];
  /** A double's raw bits or a long, as the series' type says. */
  private long[] values = new long[64];
  private int size;
  private long segment = SeriesBuffer.NO_SEGMENT;
  private long firstArrivalNanos;

  // the series table of group(), kept for the next time
  private int[] seriesOf = new int[64];
  private SeriesHandle[] series = new SeriesHandle[16];
  private int seriesCount;
  private SeriesHandle[] slots = new SeriesHandle[32];
  private int[] places = new int[32];

  boolean isEmpty() {
    return size == 0;
  }

  /** The oldest log segment of the staged points. */
  long segment() {
    return segment;
  }

  /** When the oldest staged point arrived; meaningful only while points are staged. */
  long firstArrivalNanos() {
    return firstArrivalNanos;
  }

  /** Notes that points logged in this segment arrive now, before they are added. */
  void arrive(long segment, long nowNanos) {
    if (size == 0) {
      firstArrivalNanos = nowNanos;
    }
    this.segment = Math.min(this.segment, segment);
  }

  void add(SeriesHandle handle, long timestamp, long value) {
    if (size == handles.length) {
      int capacity = size * 2;
      handles = Arrays.copyOf(handles, capacity);
      timestamps = Arrays.copyOf(timestamps, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    handles[size] = handle;
    timestamps[size] = timestamp;
    values[size] = value;
    size++;
  }

  /** Builds the series table, so that the staged points can be put into buffers as a batch. */
  void group() {
    if (seriesOf.length < handles.length) {
      seriesOf = new int[handles.length];
    }
    int wanted = Integer.highestOneBit(size) * 4;
    if (slots.length < wanted) {
      slots = new SeriesHandle[wanted];
      places = new int[wanted];
    }
    int mask = slots.length - 1;
    seriesCount = 0;
    for (int i = 0; i < size; i++) {
      SeriesHandle handle = handles[i];
      int slot = (handle.hash() * 0x9E3779B9) >>> 7 & mask;
      while (true) {
        SeriesHandle at = slots[slot];
        if (at == null) {
          if (seriesCount == series.length) {
            series = Arrays.copyOf(series, seriesCount * 2);
          }
          series[seriesCount] = handle;
          slots[slot] = handle;
          places[slot] = seriesCount;
          seriesOf[i] = seriesCount++;
          break;
        }
        if (at == handle) {
          seriesOf[i] = places[slot];
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }

  /** Empties the staging once its points are in their buffers; the caller lets its segment go. */
  void clear() {
    Arrays.fill(slots, null);
    Arrays.fill(handles, 0, size, null);
    Arrays.fill(series, 0, seriesCount, null);
    size = 0;
    seriesCount = 0;
    segment = SeriesBuffer.NO_SEGMENT;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public int seriesCount() {
    return seriesCount;
  }

  @Override
  public SeriesKey series(int index) {
    return series[index].key();
  }

  @Override
  public SeriesHandle handle(int index) {
    return series[index];
  }

  @Override
  public int seriesOf(int index) {
    return seriesOf[index];
  }

  @Override
  public long timestamp(int index) {
    return timestamps[index];
  }

  @Override
  public double value(int index) {
    return Double.longBitsToDouble(values[index]);
  }

  @Override
  public long longValue(int index) {
    return values[index];
  }

  @Override
  public String text(int index) {
    throw new IllegalStateException("staged points are numeric");
  }

  @Override
  public double[] array(int index) {
    throw new IllegalStateException("staged points are numeric");
  }

  @Override
  public void appendNumeric(PackedPoints points, int[] order, int from, int to) {
    points.addBits(timestamps, values, order, from, to);
  }

  static boolean stages(ValueType type) {
    return SeriesBuffer.isNumeric(type);
  }
}
