package io.chronix.ingest.pipeline;

import io.chronix.core.codec.PackedPoints;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.buffer.SeriesBatch;
import io.chronix.ingest.buffer.SeriesHandle;
import io.chronix.ingest.protocol.PointSink;
import java.util.Arrays;

/**
 * The points of one request (or one read from a socket), collected before anything is stored, so
 * that a request is logged and applied as a unit. A point's value type is its series' type.
 */
public final class PointBatch implements PointSink, SeriesBatch {

  /** The batch's distinct series in order of first appearance; equal keys share one entry. */
  private SeriesHandle[] series = new SeriesHandle[8];
  /** Each series' value type beside it: the log and the budget check read it a point. */
  private ValueType[] seriesTypes = new ValueType[8];
  private int seriesCount;
  /**
   * Open addressing over the series: a slot holds a handle (null is free) and its place in
   * {@link #series}. A HashMap of boxed places allocated a node and an Integer a series, a batch of
   * ten thousand series a quarter of a megabyte, and its lookups missed the cache twice.
   */
  private SeriesHandle[] slotHandles;
  private int[] slotPlaces;
  /** Series of the point before: lines of one series come in runs, which skip the map. */
  private Object lastKey;
  private int lastSeries;
  /** Per point, its series' place in {@link #series}. */
  private int[] seriesOf;
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

  private static final int MAX_RESERVED = 1 << 20;

  public PointBatch(int capacity) {
    // sized for as many series as points, up to 16,384, at most half full: a request of ten
    // thousand series grew a map ten times over, rehashing its keys each time
    slotHandles = new SeriesHandle[Integer.highestOneBit(Math.min(Math.max(1, capacity), 1 << 14)) * 4];
    slotPlaces = new int[slotHandles.length];
    seriesOf = new int[Math.max(1, capacity)];
    timestamps = new long[seriesOf.length];
    values = new double[seriesOf.length];
  }

  /**
   * Makes room for {@code points} points (and as many series, up to 16,384) at once, so that a
   * large batch neither grows its arrays nor rehashes its series table point by point. At most a
   * million points (20 MB) are reserved: bodies in flight are bounded by their bytes
   * (http.maxBodyBytesInFlight), not by what a guess from them would reserve.
   */
  public void reserve(int points) {
    int capacity = Math.min(points, MAX_RESERVED);
    if (capacity > seriesOf.length) {
      resize(capacity);
    }
    int wanted = Integer.highestOneBit(Math.min(Math.max(1, capacity), 1 << 14)) * 4;
    if (wanted > slotHandles.length && seriesCount == 0) {
      slotHandles = new SeriesHandle[wanted];
      slotPlaces = new int[wanted];
    }
  }

  private void resize(int capacity) {
    seriesOf = Arrays.copyOf(seriesOf, capacity);
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

  /** The next point's place; its series by handle where the parser gave one (then {@code key} is the handle's). */
  private int next(SeriesKey key, SeriesHandle handle, long timestampNanos) {
    if (size == seriesOf.length) {
      resize(size * 2);
    }
    seriesOf[size] = handle == null ? seriesIndexOf(key, null) : seriesIndexOf(handle);
    timestamps[size] = timestampNanos;
    return size++;
  }

  /*
   * Not noted in the handle itself: two requests of the same series on two threads (two clients
   * splitting one stream) then wrote their places into shared handles by turns, and each write took
   * the handle's cache line from the other core (measured: slower than the lookup it saved).
   */
  private int seriesIndexOf(SeriesHandle handle) {
    return handle == lastKey ? lastSeries : seriesIndexOf(handle.key(), handle);
  }

  /**
   * The series' place in the table, added with the given handle (or a new one) when it is not
   * there yet. The table holds the handles themselves with their keys' hashes: the handle a parser
   * gives is found by identity without touching another object, which a lookup a point (a line's
   * fields are as many series) did otherwise for every entry it passed.
   */
  private int seriesIndexOf(SeriesKey key, SeriesHandle handle) {
    if (key == lastKey) {
      return lastSeries;
    }
    int hash = handle != null ? handle.hash() : key.hashCode();
    int mask = slotHandles.length - 1;
    int slot = spread(hash) & mask;
    int index;
    while (true) {
      SeriesHandle at = slotHandles[slot];
      if (at == null) {
        index = add(handle != null ? handle : new SeriesHandle(key));
        slotHandles[slot] = series[index];
        slotPlaces[slot] = index;
        if (seriesCount * 2 > slotHandles.length) {
          rehash();
        }
        break;
      }
      if (at == handle || (at.hash() == hash && (at.key() == key || at.key().equals(key)))) {
        index = slotPlaces[slot];
        break;
      }
      slot = (slot + 1) & mask;
    }
    lastKey = handle != null ? handle : key;
    lastSeries = index;
    return index;
  }

  private int add(SeriesHandle handle) {
    if (seriesCount == series.length) {
      series = Arrays.copyOf(series, seriesCount * 2);
      seriesTypes = Arrays.copyOf(seriesTypes, seriesCount * 2);
    }
    series[seriesCount] = handle;
    seriesTypes[seriesCount] = handle.valueType();
    return seriesCount++;
  }

  /**
   * Frees the table's slots: those of the series when they are few (a batch of one series' lines,
   * reused for the next request, cleared a table sized for ten thousand series each time).
   */
  private void clearSlots() {
    if (seriesCount * 8 > slotHandles.length) {
      Arrays.fill(slotHandles, null);
      return;
    }
    int mask = slotHandles.length - 1;
    for (int index = 0; index < seriesCount; index++) {
      SeriesHandle handle = series[index];
      int slot = spread(handle.hash()) & mask;
      while (slotHandles[slot] != handle) { // present: the slots freed before it are passed over
        slot = (slot + 1) & mask;
      }
      slotHandles[slot] = null;
    }
  }

  private void rehash() {
    slotHandles = new SeriesHandle[slotHandles.length * 2];
    slotPlaces = new int[slotHandles.length];
    int mask = slotHandles.length - 1;
    for (int index = 0; index < seriesCount; index++) {
      int slot = spread(series[index].hash()) & mask;
      while (slotHandles[slot] != null) {
        slot = (slot + 1) & mask;
      }
      slotHandles[slot] = series[index];
      slotPlaces[slot] = index;
    }
  }

  /**
   * Fibonacci hashing: the key's hash times 2^32 / phi, high bits to the low ones. Series keys of a
   * fleet differ in a few characters of one attribute, and with HashMap's spreading their slots
   * formed long runs that linear probing walked (a fifth of the stream's write path).
   */
  private static int spread(int hash) {
    int mixed = hash * 0x9E3779B9;
    return mixed ^ (mixed >>> 15);
  }

  // By key (every protocol) or by handle (a parser that keeps one a series): the place first, as
  // it may replace the arrays (so never `values[next(...)] = v`, which stores into the array it
  // read before), then the value in its column.

  @Override
  public void accept(SeriesKey key, long timestampNanos, double value) {
    putDouble(next(key, null, timestampNanos), value);
  }

  @Override
  public void accept(SeriesHandle series, long timestampNanos, double value) {
    putDouble(next(series.key(), series, timestampNanos), value);
  }

  @Override
  public void acceptBoolean(SeriesKey key, long timestampNanos, boolean value) {
    putDouble(next(key, null, timestampNanos), value ? 1 : 0);
  }

  @Override
  public void acceptBoolean(SeriesHandle series, long timestampNanos, boolean value) {
    putDouble(next(series.key(), series, timestampNanos), value ? 1 : 0);
  }

  @Override
  public void acceptLong(SeriesKey key, long timestampNanos, long value) {
    putLong(next(key, null, timestampNanos), value);
  }

  @Override
  public void acceptLong(SeriesHandle series, long timestampNanos, long value) {
    putLong(next(series.key(), series, timestampNanos), value);
  }

  @Override
  public void acceptText(SeriesKey key, long timestampNanos, String value) {
    putText(next(key, null, timestampNanos), value);
  }

  @Override
  public void acceptText(SeriesHandle series, long timestampNanos, String value) {
    putText(next(series.key(), series, timestampNanos), value);
  }

  @Override
  public void acceptArray(SeriesKey key, long timestampNanos, double[] value) {
    putArray(next(key, null, timestampNanos), value);
  }

  @Override
  public void acceptArray(SeriesHandle series, long timestampNanos, double[] value) {
    putArray(next(series.key(), series, timestampNanos), value);
  }

  private void putDouble(int index, double value) {
    values[index] = value;
  }

  private void putLong(int index, long value) {
    if (longs == null) {
      longs = new long[seriesOf.length];
    }
    longs[index] = value;
  }

  private void putText(int index, String value) {
    if (texts == null) {
      texts = new String[seriesOf.length];
    }
    texts[index] = value;
  }

  private void putArray(int index, double[] value) {
    if (arrays == null) {
      arrays = new double[seriesOf.length][];
    }
    arrays[index] = value;
  }

  /** Points the batch holds room for. */
  public int capacity() {
    return seriesOf.length;
  }

  @Override
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public int seriesCount() {
    return seriesCount;
  }

  @Override
  public SeriesKey series(int series) {
    return this.series[series].key();
  }

  @Override
  public SeriesHandle handle(int series) {
    return this.series[series];
  }

  /** The value type of a series of the table. */
  public ValueType seriesType(int series) {
    return seriesTypes[series];
  }

  @Override
  public int seriesOf(int index) {
    return seriesOf[index];
  }

  @Override
  public SeriesKey key(int index) {
    return series[seriesOf[index]].key();
  }

  @Override
  public long timestamp(int index) {
    return timestamps[index];
  }

  /** The earliest timestamp of the batch's points (epoch nanoseconds); Long.MAX_VALUE when empty. */
  public long earliestTimestamp() {
    long earliest = Long.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      earliest = Math.min(earliest, timestamps[i]);
    }
    return earliest;
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

  @Override
  public void appendNumeric(PackedPoints points, int[] order, int from, int to) {
    if (points.type() == ValueType.LONG) {
      points.addLongs(timestamps, longs, order, from, to);
    } else {
      points.addDoubles(timestamps, values, order, from, to);
    }
  }

  /** Adds point {@code index} to another batch, with its value as its series' type has it. */
  public void copyTo(int index, PointBatch sink) {
    SeriesKey key = key(index);
    switch (key.valueType()) {
      case LONG -> sink.acceptLong(key, timestamps[index], longs[index]);
      case BOOLEAN -> sink.acceptBoolean(key, timestamps[index], values[index] != 0);
      case STRING -> sink.acceptText(key, timestamps[index], texts[index]);
      case ARRAY -> sink.acceptArray(key, timestamps[index], arrays[index]);
      default -> sink.accept(key, timestamps[index], values[index]);
    }
  }

  public void clear() {
    clearSlots();
    Arrays.fill(series, 0, seriesCount, null);
    seriesCount = 0;
    lastKey = null;
    if (texts != null) {
      Arrays.fill(texts, 0, size, null);
    }
    if (arrays != null) {
      Arrays.fill(arrays, 0, size, null);
    }
    size = 0;
  }
}
