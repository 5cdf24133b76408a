package io.chronix.core.codec;

import java.util.Arrays;

/** Appends bytes, varints and fixed-width numbers to a growable array. */
public final class ByteWriter {

  private byte[] bytes;
  private int size;

  public ByteWriter(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  /** Empties the writer for reuse, with room for at least {@code capacity} bytes. */
  public void reset(int capacity) {
    size = 0;
    if (bytes.length < capacity) {
      bytes = new byte[capacity];
    }
  }

  /** Bytes the writer holds room for. */
  public int capacity() {
    return bytes.length;
  }

  private void ensure(int extra) {
    if (size + extra > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(size + extra, bytes.length * 2));
    }
  }

  public void writeByte(int value) {
    ensure(1);
    bytes[size++] = (byte) value;
  }

  public void writeBytes(byte[] source, int offset, int length) {
    ensure(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  /**
   * LEB128: seven bits a byte, low bits first, high bit set on all but the last byte. Written
   * through locals, as {@link #writeLong}: the quick compiler stores a field each time it changes.
   */
  public void writeVarLong(long value) {
    ensure(10);
    byte[] b = bytes;
    int at = size;
    while ((value & ~0x7FL) != 0) {
      b[at++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[at++] = (byte) value;
    size = at;
  }

  /**
   * A varint, a zig-zag varint and eight big-endian bytes, as the three calls would write them,
   * with one capacity check: a log entry's point (series, timestamp change, value). Three calls a
   * point, which the quick compiler does not inline, in a log encoding that took a sixth of a
   * remote-write request's thread (11 % with this).
   */
  public void writeVarLongZigZagLong(long unsigned, long signed, long fixed) {
    ensure(2 * 10 + 8);
    byte[] b = bytes;
    int at = size;
    long value = unsigned;
    while ((value & ~0x7FL) != 0) {
      b[at++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[at++] = (byte) value;
    value = (signed << 1) ^ (signed >> 63);
    while ((value & ~0x7FL) != 0) {
      b[at++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[at++] = (byte) value;
    b[at] = (byte) (fixed >>> 56);
    b[at + 1] = (byte) (fixed >>> 48);
    b[at + 2] = (byte) (fixed >>> 40);
    b[at + 3] = (byte) (fixed >>> 32);
    b[at + 4] = (byte) (fixed >>> 24);
    b[at + 5] = (byte) (fixed >>> 16);
    b[at + 6] = (byte) (fixed >>> 8);
    b[at + 7] = (byte) fixed;
    size = at + 8;
  }

  /** Zig-zag maps small negative numbers to small unsigned ones before the varint. */
  public void writeZigZag(long value) {
    writeVarLong((value << 1) ^ (value >> 63));
  }

  /** Big-endian. */
  public void writeLong(long value) {
    ensure(8);
    byte[] b = bytes;
    int at = size;
    b[at] = (byte) (value >>> 56);
    b[at + 1] = (byte) (value >>> 48);
    b[at + 2] = (byte) (value >>> 40);
    b[at + 3] = (byte) (value >>> 32);
    b[at + 4] = (byte) (value >>> 24);
    b[at + 5] = (byte) (value >>> 16);
    b[at + 6] = (byte) (value >>> 8);
    b[at + 7] = (byte) value;
    size = at + 8;
  }

  public int size() {
    return size;
  }

  public byte[] array() {
    return bytes;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
