package io.chronix.core.rollup;

import io.chronix.core.codec.ByteReader;
import io.chronix.core.codec.ByteWriter;
import io.chronix.core.codec.CorruptBlobException;

/**
 * The bytes of a rollup record's statistics ({@link BucketStats}), format version 1
 * (docs/formats.md): the version byte, the interval in nanoseconds, the number of intervals, their
 * starts (the first as a zig-zag varint, then the gaps as varints), the point and value counts as
 * varints, then minimum, maximum, sum, first and last of each interval as the 8 bytes of the double
 * (bit for bit: NaN stays the NaN it was).
 */
public final class RollupBlob {

  static final int VERSION = 1;

  private RollupBlob() {}

  public static byte[] encode(BucketStats stats) {
    int n = stats.size();
    ByteWriter out = new ByteWriter(16 + n * 48);
    out.writeByte(VERSION);
    out.writeVarLong(stats.intervalNanos());
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
    }
    for (int i = 0; i < n; i++) {
      out.writeLong(Double.doubleToRawLongBits(stats.min(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.max(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.valueCount(i) == 0 ? 0 : stats.sum(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.first(i)));
      out.writeLong(Double.doubleToRawLongBits(stats.last(i)));
    }
    byte[] bytes = new byte[out.size()];
    System.arraycopy(out.array(), 0, bytes, 0, out.size());
    return bytes;
  }

  /** @throws CorruptBlobException naming what is wrong */
  public static BucketStats decode(byte[] blob) {
    try {
      ByteReader in = new ByteReader(blob, 0, blob.length);
      int version = in.readByte();
      if (version != VERSION) {
        throw new CorruptBlobException("rollup blob of format version " + version + "; this reader reads " + VERSION);
      }
      long interval = in.readVarLong();
      long n = in.readVarLong();
      if (interval <= 0 || n < 0 || n > blob.length) {
        throw new CorruptBlobException("rollup blob: interval " + interval + " ns, " + n + " intervals in "
            + blob.length + " bytes");
      }
      int size = (int) n;
      long[] starts = new long[size];
      for (int i = 0; i < size; i++) {
        starts[i] = i == 0 ? in.readZigZag() : Math.addExact(starts[i - 1], in.readVarLong());
      }
      long[] counts = new long[size];
      long[] valueCounts = new long[size];
      for (int i = 0; i < size; i++) {
        counts[i] = in.readVarLong();
        valueCounts[i] = in.readVarLong();
      }
      BucketStats stats = new BucketStats(interval, size);
      for (int i = 0; i < size; i++) {
        double min = Double.longBitsToDouble(in.readLong());
        double max = Double.longBitsToDouble(in.readLong());
        double sum = Double.longBitsToDouble(in.readLong());
        double first = Double.longBitsToDouble(in.readLong());
        double last = Double.longBitsToDouble(in.readLong());
        stats.append(starts[i], counts[i], valueCounts[i], min, max, sum, first, last);
      }
      if (in.hasRemaining()) {
        throw new CorruptBlobException("rollup blob: bytes left after " + size + " intervals");
      }
      return stats;
    } catch (RuntimeException e) {
      if (e instanceof CorruptBlobException corrupt) {
        throw corrupt;
      }
      throw new CorruptBlobException("rollup blob cannot be read: " + e);
    }
  }
}
