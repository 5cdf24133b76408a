package io.chronix.core.codec;

import java.util.Arrays;

/** Stores the encoded chunk as it is; for debugging and for codecs that compress themselves. */
final class NoCompression implements Compression {

  static final int ID = 0;

  @Override
  public int id() {
    return ID;
  }

  @Override
  public String name() {
    return "none";
  }

  @Override
  public byte[] compress(byte[] data, int offset, int length) {
    return Arrays.copyOfRange(data, offset, offset + length);
  }

  @Override
  public byte[] decompress(byte[] data, int offset, int length, long maxBytes) {
    if (length > maxBytes) {
      throw new CorruptBlobException("body of " + length + " bytes exceeds the limit of " + maxBytes);
    }
    return Arrays.copyOfRange(data, offset, offset + length);
  }
}
