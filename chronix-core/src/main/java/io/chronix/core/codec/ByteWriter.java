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

  /** LEB128: seven bits a byte, low bits first, high bit set on all but the last byte. */
  public void writeVarLong(long value) {
    ensure(10);
    while ((value & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    bytes[size++] = (byte) value;
  }

  /** Zig-zag maps small negative numbers to small unsigned ones before the varint. */
  public void writeZigZag(long value) {
    writeVarLong((value << 1) ^ (value >> 63));
  }

  public void writeLong(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      bytes[size++] = (byte) (value >>> shift);
    }
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
