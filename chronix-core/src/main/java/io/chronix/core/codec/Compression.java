package io.chronix.core.codec;

/**
 * A general-purpose compressor applied to the encoded chunk. Each has a stable one-byte id that
 * is written into the blob, so blobs stay readable after the default changes.
 */
public interface Compression {

  /** The id written into blobs; never reuse one. */
  int id();

  String name();

  byte[] compress(byte[] data, int offset, int length);

  /**
   * Must detect damage where the format can (gzip checks its CRC-32), and must not allocate more
   * than {@code maxBytes} of output: a section that would decompress to more is damaged (or a
   * bomb) and a {@link CorruptBlobException}.
   */
  byte[] decompress(byte[] data, int offset, int length, long maxBytes);
}
