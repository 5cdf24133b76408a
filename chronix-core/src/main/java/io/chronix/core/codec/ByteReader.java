package io.chronix.core.codec;

/** Reads what {@link ByteWriter} wrote; running past the end is a {@link CorruptBlobException}. */
public final class ByteReader {

  private final byte[] bytes;
  private int position;
  private final int limit;
  private static final int MAX_VARINT_BYTES = 10;

  public ByteReader(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = offset;
    this.limit = offset + length;
  }

  public int readByte() {
    if (position >= limit) {
      throw endsEarly(); // out of line: keeps this small enough for the quick JIT compiler to inline
    }
    return bytes[position++] & 0xFF;
  }

  private CorruptBlobException endsEarly() {
    return new CorruptBlobException("blob ends early at byte " + position);
  }

  public long readVarLong() {
    if (limit - position >= MAX_VARINT_BYTES) {
      return readVarLongUnchecked();
    }
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new CorruptBlobException("varint longer than 10 bytes at byte " + position);
  }

  /**
   * The decoders' hot loop (profiled: most of a query's time went to reading varints): with ten
   * bytes left, the end of the blob cannot be reached, so no per-byte limit check.
   */
  private long readVarLongUnchecked() {
    byte[] b = bytes;
    int p = position;
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte next = b[p++];
      value |= (long) (next & 0x7F) << shift;
      if (next >= 0) {
        position = p;
        return value;
      }
    }
    throw new CorruptBlobException("varint longer than 10 bytes at byte " + position);
  }

  public long readZigZag() {
    long raw = readVarLong();
    return (raw >>> 1) ^ -(raw & 1);
  }

  /**
   * Reads {@code count} zig-zag varints into {@code into[offset]} onwards. The decoders' hot loop
   * (most of a query's CPU went to reading varints one call at a time): position and array in
   * local variables, a one-byte varint in a single branch, no call and no check of the blob's end
   * while ten bytes are left; the last varints after the loop. Written for the JIT's quick
   * compiler, which the server runs with (conf/chronix.properties) and which neither inlines deep
   * call chains nor keeps fields in registers across a loop.
   *
   * <p>This loop and {@link #readDecimals(double[], int, int, double)}'s are one loop each, the
   * varint read written out in both: one loop for both kinds, with a branch on the kind a value
   * and the call for the last bytes inside it, took 25-40 % longer a value in the quick compiler's
   * code (docs/benchmarks.md, "The quick compiler's hot loops").
   */
  public void readZigZags(long[] into, int offset, int count) {
    byte[] b = bytes;
    int p = position;
    int safeEnd = limit - MAX_VARINT_BYTES;
    int i = offset;
    int end = offset + count;
    for (; i < end && p <= safeEnd; i++) {
      long raw;
      byte next = b[p++];
      if (next >= 0) {
        raw = next;
      } else {
        raw = next & 0x7F;
        int shift = 7;
        while (true) {
          next = b[p++];
          raw |= (long) (next & 0x7F) << shift;
          if (next >= 0) {
            break;
          }
          shift += 7;
          if (shift >= 64) {
            throw tooLong(p);
          }
        }
      }
      into[i] = (raw >>> 1) ^ -(raw & 1);
    }
    position = p;
    for (; i < end; i++) {
      into[i] = readZigZag();
    }
  }

  /**
   * Reads {@code count} zig-zag varints as the changes of a running integer (a decimal's
   * mantissa) and stores each running value divided by {@code scale}, in the same pass: as
   * {@link #readZigZags} and a second loop over the changes, without the array of changes and
   * the second pass, which the quick compiler's code made a third of a range query's decoding.
   */
  public void readDecimals(double[] into, int count, double scale) {
    readDecimals(into, 0, count, scale);
  }

  /** As {@link #readDecimals(double[], int, double)}, into {@code into[offset]} onwards. */
  public void readDecimals(double[] into, int offset, int count, double scale) {
    byte[] b = bytes;
    int p = position;
    int safeEnd = limit - MAX_VARINT_BYTES;
    long running = 0;
    int i = offset;
    int end = offset + count;
    for (; i < end && p <= safeEnd; i++) {
      long raw;
      byte next = b[p++];
      if (next >= 0) {
        raw = next;
      } else {
        raw = next & 0x7F;
        int shift = 7;
        while (true) {
          next = b[p++];
          raw |= (long) (next & 0x7F) << shift;
          if (next >= 0) {
            break;
          }
          shift += 7;
          if (shift >= 64) {
            throw tooLong(p);
          }
        }
      }
      running += (raw >>> 1) ^ -(raw & 1);
      into[i] = running / scale; // x / 1.0 is x: a scale of 1 stores the integer itself
    }
    position = p;
    for (; i < end; i++) {
      running += readZigZag();
      into[i] = running / scale;
    }
  }

  /** Built out of line, as {@link #endsEarly}: the hot loops stay small. */
  private CorruptBlobException tooLong(int p) {
    position = p;
    return new CorruptBlobException("varint longer than 10 bytes at byte " + p);
  }

  public long readLong() {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | readByte();
    }
    return value;
  }

  /** A string of {@code length} UTF-8 bytes; checked against what is left before anything is allocated. */
  public String readUtf8(long length) {
    if (length < 0 || length > limit - position) {
      throw new CorruptBlobException("string of " + length + " bytes at byte " + position + ", but only "
          + (limit - position) + " are left");
    }
    String text = new String(bytes, position, (int) length, java.nio.charset.StandardCharsets.UTF_8);
    position += (int) length;
    return text;
  }

  /** The zig-zag varint {@code ahead} bytes further on, read without moving. */
  public long peekZigZag(int ahead) {
    int at = position;
    skip(ahead);
    try {
      return readZigZag();
    } finally {
      position = at;
    }
  }

  /** A reader of the {@code length} bytes that start {@code ahead} bytes further on; this one does not move. */
  public ByteReader region(int ahead, int length) {
    if (ahead < 0 || length < 0 || (long) ahead + length > limit - position) {
      throw new CorruptBlobException("a region of " + length + " bytes " + ahead + " bytes after byte " + position
          + " runs past the end");
    }
    return new ByteReader(bytes, position + ahead, length);
  }

  /** Steps over {@code count} bytes. */
  public void skip(int count) {
    if (count < 0 || count > limit - position) {
      throw new CorruptBlobException("cannot skip " + count + " bytes at byte " + position + ", " + (limit - position)
          + " are left");
    }
    position += count;
  }

  /** Bytes left to read. */
  public int remaining() {
    return limit - position;
  }

  public boolean hasRemaining() {
    return position < limit;
  }
}
