package io.chronix.core.codec;

/** Reads what {@link ByteWriter} wrote; running past the end is a {@link CorruptBlobException}. */
public final class ByteReader {

  private final byte[] bytes;
  private int position;
  private final int limit;

  public ByteReader(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = offset;
    this.limit = offset + length;
  }

  public int readByte() {
    if (position >= limit) {
      throw new CorruptBlobException("blob ends early at byte " + position);
    }
    return bytes[position++] & 0xFF;
  }

  public long readVarLong() {
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

  public long readZigZag() {
    long raw = readVarLong();
    return (raw >>> 1) ^ -(raw & 1);
  }

  public long readLong() {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | readByte();
    }
    return value;
  }

  public boolean hasRemaining() {
    return position < limit;
  }
}
