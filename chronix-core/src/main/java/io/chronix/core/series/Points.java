package io.chronix.core.series;

import java.util.Arrays;

/**
 * A growable sequence of (timestamp, value) pairs in primitive arrays. Timestamps are epoch
 * nanoseconds, which keeps line-protocol precision and spans the years 1677 to 2262.
 *
 * <p>Not thread-safe: a buffer that several writers share must guard it.
 */
public final class Points {

  /** Elements an array point may have when written: what protocols accept (docs/lifecycle.md). */
  public static final int MAX_ARRAY_LENGTH = 10_000;

  private final ValueType type;
  private long[] timestamps;
  /** DOUBLE and BOOLEAN (0 or 1) values. */
  private double[] values;
  /** LONG values, exact. */
  private long[] longs;
  /** STRING values. */
  private String[] texts;
  /** ARRAY values; an array is owned by the points once added (never copied, never changed). */
  private double[][] arrays;
  private int size;

  public Points() {
    this(16);
  }

  public Points(int capacity) {
    this(ValueType.DOUBLE, capacity);
  }

  public Points(ValueType type, int capacity) {
    this.type = type;
    int slots = Math.max(1, capacity);
    timestamps = new long[slots];
    switch (type) {
      case LONG:
        longs = new long[slots];
        break;
      case STRING:
        texts = new String[slots];
        break;
      case ARRAY:
        arrays = new double[slots][];
        break;
      default:
        values = new double[slots];
    }
  }

  /** Wraps the first {@code size} entries of the given arrays without copying (doubles). */
  public static Points wrap(long[] timestamps, double[] values, int size) {
    return wrap(ValueType.DOUBLE, timestamps, values, size);
  }

  /** Doubles, or booleans as 0 and 1. */
  public static Points wrap(ValueType type, long[] timestamps, double[] values, int size) {
    if (type == ValueType.LONG || type == ValueType.STRING || type == ValueType.ARRAY) {
      throw new IllegalArgumentException(type + " points do not live in a double array");
    }
    Points points = wrapped(type, timestamps, values.length, size);
    points.values = values;
    return points;
  }

  public static Points wrapLongs(long[] timestamps, long[] longs, int size) {
    Points points = wrapped(ValueType.LONG, timestamps, longs.length, size);
    points.longs = longs;
    return points;
  }

  public static Points wrapTexts(long[] timestamps, String[] texts, int size) {
    Points points = wrapped(ValueType.STRING, timestamps, texts.length, size);
    points.texts = texts;
    return points;
  }

  /** Array points; the arrays are taken as they are, not copied. */
  public static Points wrapArrays(long[] timestamps, double[][] arrays, int size) {
    Points points = wrapped(ValueType.ARRAY, timestamps, arrays.length, size);
    points.arrays = arrays;
    return points;
  }

  /** Points over the given timestamps; the caller sets the value column of its {@code valueCount} entries. */
  private static Points wrapped(ValueType type, long[] timestamps, int valueCount, int size) {
    if (timestamps.length < size || valueCount < size) {
      throw new IllegalArgumentException("arrays shorter than size " + size);
    }
    Points points = new Points(type, 0);
    points.timestamps = timestamps;
    points.size = size;
    return points;
  }

  public ValueType type() {
    return type;
  }

  /**
   * Room for {@code capacity} points in all, made at once (grown by half at least, as one point at a
   * time grows it): a run of points added together grows the arrays once.
   */
  public void ensureCapacity(int capacity) {
    if (capacity > timestamps.length) {
      resize(Math.max(capacity, size + (size >> 1) + 1));
    }
  }

  private void grow() {
    if (size == timestamps.length) {
      resize(size + (size >> 1) + 1);
    }
  }

  private void resize(int capacity) {
    timestamps = Arrays.copyOf(timestamps, capacity);
    if (values != null) {
      values = Arrays.copyOf(values, capacity);
    }
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

  /** Adds a double (or, to boolean points, 0 or 1). */
  public void add(long timestamp, double value) {
    if (values == null) {
      throw new IllegalStateException(type + " points take no doubles");
    }
    grow();
    timestamps[size] = timestamp;
    values[size] = value;
    size++;
  }

  public void addLong(long timestamp, long value) {
    if (longs == null) {
      throw new IllegalStateException(type + " points take no longs");
    }
    grow();
    timestamps[size] = timestamp;
    longs[size] = value;
    size++;
  }

  /**
   * Adds doubles (or booleans as 0 and 1): point {@code at[i]} of the given columns for each
   * {@code i} from {@code from} to {@code to - 1}, or point {@code i} itself when {@code at} is
   * null. Room is made once: a buffer taking a run of a request's points made a call a point.
   */
  public void addDoubles(long[] timestamps, double[] values, int[] at, int from, int to) {
    if (this.values == null) {
      throw new IllegalStateException(type + " points take no doubles");
    }
    for (int i = from, next = addTimestamps(timestamps, at, from, to); i < to; i++, next++) {
      this.values[next] = values[at == null ? i : at[i]];
    }
  }

  /** As {@link #addDoubles}, for exact longs. */
  public void addLongs(long[] timestamps, long[] longs, int[] at, int from, int to) {
    if (this.longs == null) {
      throw new IllegalStateException(type + " points take no longs");
    }
    for (int i = from, next = addTimestamps(timestamps, at, from, to); i < to; i++, next++) {
      this.longs[next] = longs[at == null ? i : at[i]];
    }
  }

  /**
   * As {@link #addDoubles} and {@link #addLongs}, from one column of 64-bit words: a double's raw
   * bits where these points hold doubles or booleans, the value itself where they hold longs.
   */
  public void addBits(long[] timestamps, long[] bits, int[] at, int from, int to) {
    if (longs != null) {
      addLongs(timestamps, bits, at, from, to);
      return;
    }
    if (values == null) {
      throw new IllegalStateException(type + " points take no numbers");
    }
    for (int i = from, next = addTimestamps(timestamps, at, from, to); i < to; i++, next++) {
      values[next] = Double.longBitsToDouble(bits[at == null ? i : at[i]]);
    }
  }

  /** Appends the run's timestamps with room for its values; answers where the run starts. */
  private int addTimestamps(long[] timestamps, int[] at, int from, int to) {
    ensureCapacity(size + to - from);
    int start = size;
    int next = start;
    long[] own = this.timestamps;
    for (int i = from; i < to; i++) {
      own[next++] = timestamps[at == null ? i : at[i]];
    }
    size = next;
    return start;
  }

  public void addBoolean(long timestamp, boolean value) {
    if (type != ValueType.BOOLEAN) {
      throw new IllegalStateException(type + " points take no booleans");
    }
    add(timestamp, value ? 1 : 0);
  }

  public void addText(long timestamp, String value) {
    if (texts == null) {
      throw new IllegalStateException(type + " points take no strings");
    }
    grow();
    timestamps[size] = timestamp;
    texts[size] = value;
    size++;
  }

  /** Adds an array of doubles; the points keep the array itself, so the caller must not change it. */
  public void addArray(long timestamp, double[] value) {
    if (arrays == null) {
      throw new IllegalStateException(type + " points take no arrays");
    }
    if (value == null) {
      throw new IllegalArgumentException("an array point needs an array");
    }
    grow();
    timestamps[size] = timestamp;
    arrays[size] = value;
    size++;
  }

  /** Appends point {@code index} of another series of the same type. */
  public void addFrom(Points other, int index) {
    switch (type) {
      case ARRAY:
        addArray(other.timestamps[index], other.arrays[index]);
        break;
      case LONG:
        addLong(other.timestamps[index], other.longs[index]);
        break;
      case STRING:
        addText(other.timestamps[index], other.texts[index]);
        break;
      default:
        add(other.timestamps[index], other.values[index]);
    }
  }

  public void addAll(Points other) {
    if (other.type != type) {
      throw new IllegalArgumentException("cannot add " + other.type + " points to " + type + " points");
    }
    appendRange(other, 0, other.size);
  }

  /** Appends points [from, to) of another series of the same type. */
  private void appendRange(Points other, int from, int to) {
    int count = to - from;
    int needed = size + count;
    if (needed > timestamps.length) {
      timestamps = Arrays.copyOf(timestamps, needed);
      if (values != null) {
        values = Arrays.copyOf(values, needed);
      }
      if (longs != null) {
        longs = Arrays.copyOf(longs, needed);
      }
      if (texts != null) {
        texts = Arrays.copyOf(texts, needed);
      }
      if (arrays != null) {
        arrays = Arrays.copyOf(arrays, needed);
      }
    }
    System.arraycopy(other.timestamps, from, timestamps, size, count);
    if (values != null) {
      System.arraycopy(other.values, from, values, size, count);
    }
    if (longs != null) {
      System.arraycopy(other.longs, from, longs, size, count);
    }
    if (texts != null) {
      System.arraycopy(other.texts, from, texts, size, count);
    }
    if (arrays != null) {
      System.arraycopy(other.arrays, from, arrays, size, count);
    }
    size = needed;
  }

  /**
   * Two time-ordered series of one type merged into one, stably: where timestamps tie, the
   * first's points come before the second's, exactly as a stable sort of the two laid end to end
   * would order them (so {@link #sortAndDeduplicate} then keeps the second's). Linear, and runs
   * of either side are copied whole: overlapping records of a series interleave in long runs.
   */
  public static Points mergeSorted(Points first, Points second) {
    if (first.type != second.type) {
      throw new IllegalArgumentException("cannot merge " + first.type + " points with " + second.type + " points");
    }
    Points merged = new Points(first.type, first.size + second.size);
    int i = 0;
    int j = 0;
    while (i < first.size && j < second.size) {
      int end;
      if (second.timestamps[j] < first.timestamps[i]) {
        end = j + 1;
        while (end < second.size && second.timestamps[end] < first.timestamps[i]) {
          end++;
        }
        merged.appendRange(second, j, end);
        j = end;
      } else {
        end = i + 1;
        while (end < first.size && first.timestamps[end] <= second.timestamps[j]) {
          end++;
        }
        merged.appendRange(first, i, end);
        i = end;
      }
    }
    merged.appendRange(first, i, first.size);
    merged.appendRange(second, j, second.size);
    return merged;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public long timestamp(int index) {
    return timestamps[index];
  }

  /**
   * The value as a number, for functions: doubles as they are, longs converted, booleans as 0 or 1,
   * strings and arrays as NaN.
   */
  public double value(int index) {
    if (values != null) {
      return values[index];
    }
    return longs != null ? longs[index] : Double.NaN;
  }

  public long longValue(int index) {
    return longs != null ? longs[index] : (long) value(index);
  }

  public boolean booleanValue(int index) {
    return value(index) != 0;
  }

  /** The value of an array point (shared, not a copy: do not change it). */
  public double[] array(int index) {
    if (arrays == null) {
      throw new IllegalStateException(type + " points hold no arrays");
    }
    return arrays[index];
  }

  public String text(int index) {
    if (texts != null) {
      return texts[index];
    }
    if (arrays != null) {
      return Arrays.toString(arrays[index]);
    }
    if (longs != null) {
      return Long.toString(longs[index]);
    }
    return type == ValueType.BOOLEAN ? Boolean.toString(values[index] != 0) : Double.toString(values[index]);
  }

  /** The backing array; valid entries are [0, size). */
  public long[] timestampArray() {
    return timestamps;
  }

  /**
   * The values as doubles; valid entries are [0, size). The backing array for doubles and
   * booleans, a converted copy (see {@link #value}) for longs and strings.
   */
  public double[] valueArray() {
    if (values != null) {
      return values;
    }
    double[] converted = new double[size];
    for (int i = 0; i < size; i++) {
      converted[i] = value(i);
    }
    return converted;
  }

  /** The backing array of long points. */
  public long[] longArray() {
    return longs;
  }

  /** The backing array of string points. */
  public String[] textArray() {
    return texts;
  }

  /** The backing array of array points. */
  public double[][] arrayArray() {
    return arrays;
  }

  public void clear() {
    size = 0;
  }

  /** A copy of the points in [from, to). */
  public Points slice(int from, int to) {
    long[] sliced = Arrays.copyOfRange(timestamps, from, to);
    switch (type) {
      case LONG:
        return wrapLongs(sliced, Arrays.copyOfRange(longs, from, to), to - from);
      case STRING:
        return wrapTexts(sliced, Arrays.copyOfRange(texts, from, to), to - from);
      case ARRAY:
        return wrapArrays(sliced, Arrays.copyOfRange(arrays, from, to), to - from);
      default:
        return wrap(type, sliced, Arrays.copyOfRange(values, from, to), to - from);
    }
  }

  /** Whether every timestamp is later than the one before: sorted, and no two equal. */
  public boolean isStrictlyIncreasing() {
    for (int i = 1; i < size; i++) {
      if (timestamps[i] <= timestamps[i - 1]) {
        return false;
      }
    }
    return true;
  }

  public boolean isSorted() {
    for (int i = 1; i < size; i++) {
      if (timestamps[i] < timestamps[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sorts by timestamp and collapses points with equal timestamps into the one added last
   * (last write wins), in place.
   */
  public void sortAndDeduplicate() {
    if (isStrictlyIncreasing()) {
      return; // the usual case: nothing to sort, nothing to collapse
    }
    if (!isSorted()) {
      sortStable();
    }
    int out = 0;
    for (int i = 0; i < size; i++) {
      if (out > 0 && timestamps[out - 1] == timestamps[i]) {
        move(i, out - 1);
      } else {
        timestamps[out] = timestamps[i];
        move(i, out);
        out++;
      }
    }
    size = out;
  }

  private void move(int from, int to) {
    if (values != null) {
      values[to] = values[from];
    }
    if (longs != null) {
      longs[to] = longs[from];
    }
    if (texts != null) {
      texts[to] = texts[from];
    }
    if (arrays != null) {
      arrays[to] = arrays[from];
    }
  }

  private void sortStable() {
    int[] order = new int[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    // stable: among equal timestamps, insertion order is kept (the later point wins the collapse).
    // Indexes sorted as ints: boxed indexes under a comparator were a sixth of a flush of buffers
    // that two request threads had filled slightly out of order.
    mergeSort(order, new int[size], 0, size);
    timestamps = permuted(timestamps, order, size);
    if (values != null) {
      values = permuted(values, order, size);
    }
    if (longs != null) {
      longs = permuted(longs, order, size);
    }
    if (texts != null) {
      texts = permuted(texts, order, size);
    }
    if (arrays != null) {
      arrays = permuted(arrays, order, size);
    }
  }

  /** New arrays, never the old ones permuted in place: slices and snapshots may share them. */
  private static long[] permuted(long[] array, int[] order, int size) {
    long[] sorted = new long[size];
    for (int i = 0; i < size; i++) {
      sorted[i] = array[order[i]];
    }
    return sorted;
  }

  private static double[] permuted(double[] array, int[] order, int size) {
    double[] sorted = new double[size];
    for (int i = 0; i < size; i++) {
      sorted[i] = array[order[i]];
    }
    return sorted;
  }

  private static <T> T[] permuted(T[] array, int[] order, int size) {
    T[] sorted = Arrays.copyOf(array, size);
    for (int i = 0; i < size; i++) {
      sorted[i] = array[order[i]];
    }
    return sorted;
  }

  private static final int INSERTION_SORTED = 16;

  /** Sorts {@code order[from, to)} by timestamp, stably; halves in order already are not merged. */
  private void mergeSort(int[] order, int[] scratch, int from, int to) {
    if (to - from <= INSERTION_SORTED) {
      for (int i = from + 1; i < to; i++) {
        int index = order[i];
        long timestamp = timestamps[index];
        int j = i;
        while (j > from && timestamps[order[j - 1]] > timestamp) {
          order[j] = order[j - 1];
          j--;
        }
        order[j] = index;
      }
      return;
    }
    int middle = (from + to) >>> 1;
    mergeSort(order, scratch, from, middle);
    mergeSort(order, scratch, middle, to);
    if (timestamps[order[middle - 1]] <= timestamps[order[middle]]) {
      return;
    }
    System.arraycopy(order, from, scratch, from, to - from);
    int left = from;
    int right = middle;
    int out = from;
    while (left < middle && right < to) {
      // the right half's point goes first only when strictly earlier: equal ones keep their order
      order[out++] = timestamps[scratch[right]] < timestamps[scratch[left]] ? scratch[right++] : scratch[left++];
    }
    while (left < middle) {
      order[out++] = scratch[left++];
    }
    while (right < to) {
      order[out++] = scratch[right++];
    }
  }

  /** The points whose timestamps lie in [fromInclusive, toExclusive), assuming sorted order. */
  public Points clip(long fromInclusive, long toExclusive) {
    int from = lowerBound(fromInclusive);
    int to = lowerBound(toExclusive);
    if (from == 0 && to == size) {
      return this; // nothing to cut (records decoded to a query's range already are): no copy
    }
    return slice(from, Math.max(from, to));
  }

  /** Whether a timestamp lies in [fromInclusive, toExclusive), assuming sorted order: {@link #clip} without its copy. */
  public boolean holdsTimestampIn(long fromInclusive, long toExclusive) {
    int at = lowerBound(fromInclusive);
    return at < size && timestamps[at] < toExclusive;
  }

  private int lowerBound(long timestamp) {
    return lowerBound(timestamps, size, timestamp);
  }

  /** The first of the {@code n} sorted timestamps that is at least {@code timestamp} ({@code n} when none is). */
  public static int lowerBound(long[] timestamps, int n, long timestamp) {
    return lowerBound(timestamps, 0, n, timestamp);
  }

  /** The first index in [from, to) of sorted timestamps that is at least {@code timestamp} ({@code to} when none is). */
  public static int lowerBound(long[] timestamps, int from, int to, long timestamp) {
    int low = from;
    int high = to;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (timestamps[mid] < timestamp) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /**
   * As {@link #lowerBound(long[], int, int, long)} over [from, size), found by strides doubling
   * from {@code from} and a binary search within the last one: where successive searches move
   * forward a few places each (a query's steps), a binary search over all the points took a dozen
   * probes each time (12 % of a {@code sum by} over a day of P4's 117 series at two-minute steps).
   *
   * @param from at most {@code size}; the probes never pass {@code size}
   */
  public static int lowerBoundFrom(long[] timestamps, int from, int size, long timestamp) {
    int low = from;
    int probe = from;
    long stride = 1;
    while (probe < size && timestamps[probe] < timestamp) {
      low = probe + 1;
      probe = (int) Math.min(size, low + stride);
      stride <<= 1;
    }
    return lowerBound(timestamps, low, probe, timestamp);
  }

  /** Whether point i here and point j there hold the same value, bit for bit. */
  public boolean sameValue(int i, Points other, int j) {
    switch (type) {
      case LONG:
        return longs[i] == other.longs[j];
      case STRING:
        return texts[i].equals(other.texts[j]);
      case ARRAY:
        return sameBits(arrays[i], other.arrays[j]);
      default:
        return Double.doubleToRawLongBits(values[i]) == Double.doubleToRawLongBits(other.values[j]);
    }
  }

  private static boolean sameBits(double[] a, double[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int k = 0; k < a.length; k++) {
      if (Double.doubleToRawLongBits(a[k]) != Double.doubleToRawLongBits(b[k])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Points)) {
      return false;
    }
    Points that = (Points) other;
    if (size != that.size || type != that.type) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      if (timestamps[i] != that.timestamps[i] || !sameValue(i, that, i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int hash = size * 31 + type.hashCode();
    for (int i = 0; i < size; i++) {
      hash = 31 * hash + Long.hashCode(timestamps[i]);
      hash = 31 * hash + (texts != null ? texts[i].hashCode()
          : arrays != null ? Arrays.hashCode(arrays[i])
          : Long.hashCode(longs != null ? longs[i] : Double.doubleToRawLongBits(values[i])));
    }
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("Points[").append(size).append(' ').append(type).append("]{");
    for (int i = 0; i < Math.min(size, 8); i++) {
      text.append(i == 0 ? "" : ", ").append(timestamps[i]).append('=').append(text(i));
    }
    return text.append(size > 8 ? ", ...}" : "}").toString();
  }
}
