package io.chronix.core.rollup;

import io.chronix.core.codec.ByteReader;
import io.chronix.core.codec.ByteWriter;
import io.chronix.core.codec.CorruptBlobException;

/**
 * The bytes of a rollup record's statistics ({@link RollupStats}), format version 2
 * (docs/formats.md): the version byte, the tier in nanoseconds, then two sections of the same
 * layout, the downsample intervals (nanoseconds) and the PromQL windows (milliseconds). A section:
 * the number of intervals, their starts (the first as a zig-zag varint, then the gaps as varints),
 * per interval the point and value counts and the offsets of the first point from the interval's
 * start and of the last from the first (varints), then minimum, maximum, sum, first and last as the
 * 8 bytes of the double (bit for bit: NaN stays the NaN it was). Version 1 (one section without
 * the point offsets, no windows) is still read.
 */
public final class RollupBlob {

  static final int VERSION = 2;
  private static final int VERSION_1 = 1;
  private static final long NANOS_PER_MILLI = 1_000_000L;

  private RollupBlob() {}

  /** Version 2; statistics read from version 1 (without windows) are written as version 1 again. */
  public static byte[] encode(RollupStats stats) {
    boolean times = stats.windows() != null;
    BucketStats intervals = stats.intervals();
    ByteWriter out = new ByteWriter(16 + (intervals.size() + (times ? stats.windows().size() : 0)) * 52);
    out.writeByte(times ? VERSION : VERSION_1);
    out.writeVarLong(intervals.interval());
    writeSection(out, intervals, times);
    if (times) {
      writeSection(out, stats.windows(), true);
    }
    byte[] bytes = new byte[out.size()];
    System.arraycopy(out.array(), 0, bytes, 0, out.size());
    return bytes;
  }

  private static void writeSection(ByteWriter out, BucketStats stats, boolean times) {
    int n = stats.size();
    out.writeVarLong(n);
    long previous = 0;
    for (int i = 0; i < n; i++) {
      if (i == 0) {
        out.writeZigZag(stats.start(0));
      } else {
        out.writeVarLong(stats.start(i) - previous);
      }
      previous = stats.start(i);
    }
    for (int i = 0; i < n; i++) {
      out.writeVarLong(stats.count(i));
      out.writeVarLong(stats.valueCount(i));
      if (times) {
        out.writeVarLong(stats.firstTime(i) - stats.start(i));
        out.writeVarLong(stats.lastTime(i) - stats.firstTime(i));
      }
    }
    for (int i = 0; i < n; i++) {
      out.writeLong(Double.doubleToRawLongBits(stats.min(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.max(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.valueCount(i) == 0 ? 0 : stats.sum(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.first(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.last(i)));
    }
  }

  /** Both sections. @throws CorruptBlobException naming what is wrong */
  public static RollupStats decode(byte[] blob) {
    return decode(blob, true);
  }

  /**
   * The downsample intervals alone (windows null), for queries that need no more: the windows
   * section is left unread, so damage there goes unnoticed here.
   */
  public static RollupStats decodeIntervals(byte[] blob) {
    return decode(blob, false);
  }

  private static RollupStats decode(byte[] blob, boolean withWindows) {
    try {
      ByteReader in = new ByteReader(blob, 0, blob.length);
      int version = in.readByte();
      if (version != VERSION && version != VERSION_1) {
        throw new CorruptBlobException("rollup blob of format version " + version + "; this reader reads "
            + VERSION_1 + " and " + VERSION);
      }
      long interval = in.readVarLong();
      if (interval <= 0 || (version == VERSION && interval % NANOS_PER_MILLI != 0)) {
        throw new CorruptBlobException("rollup blob: interval " + interval + " ns");
      }
      boolean times = version == VERSION;
      BucketStats intervals = readSection(in, blob.length, interval, false, times);
      if (!withWindows) {
        return new RollupStats(intervals, null);
      }
      BucketStats windows = times ? readSection(in, blob.length, interval / NANOS_PER_MILLI, true, true) : null;
      if (in.hasRemaining()) {
        throw new CorruptBlobException("rollup blob: bytes left after " + intervals.size() + " intervals"
            + (windows == null ? "" : " and " + windows.size() + " windows"));
      }
      return new RollupStats(intervals, windows);
    } catch (RuntimeException e) {
      if (e instanceof CorruptBlobException corrupt) {
        throw corrupt;
      }
      throw new CorruptBlobException("rollup blob cannot be read: " + e);
    }
  }

  /** One section; without times (version 1) the point timestamps read as the interval's start. */
  private static BucketStats readSection(ByteReader in, int length, long interval, boolean rightClosed,
      boolean times) {
    long n = in.readVarLong();
    if (n < 0 || n > length) {
      throw new CorruptBlobException("rollup blob: " + n + " intervals in " + length + " bytes");
    }
    int size = (int) n;
    long[] starts = new long[size];
    for (int i = 0; i < size; i++) {
      starts[i] = i == 0 ? in.readZigZag() : Math.addExact(starts[i - 1], in.readVarLong());
    }
    long[] counts = new long[size];
    long[] valueCounts = new long[size];
    long[] firstTimes = new long[size];
    long[] lastTimes = new long[size];
    for (int i = 0; i < size; i++) {
      counts[i] = in.readVarLong();
      valueCounts[i] = in.readVarLong();
      firstTimes[i] = times ? Math.addExact(starts[i], in.readVarLong()) : starts[i];
      lastTimes[i] = times ? Math.addExact(firstTimes[i], in.readVarLong()) : starts[i];
    }
    BucketStats stats = new BucketStats(interval, rightClosed, size);
    for (int i = 0; i < size; i++) {
      double min = Double.longBitsToDouble(in.readLong());
      double max = Double.longBitsToDouble(in.readLong());
      double sum = Double.longBitsToDouble(in.readLong());
      double first = Double.longBitsToDouble(in.readLong());
      double last = Double.longBitsToDouble(in.readLong());
      stats.append(starts[i], counts[i], valueCounts[i], min, max, sum, first, last, firstTimes[i], lastTimes[i]);
    }
    return stats;
  }
}
