package io.chronix.core.codec;

import io.chronix.core.series.Points;

/**
 * Encodes the points of one chunk into a data blob and back.
 *
 * <p>Blob format version 2 (see docs/formats.md):
 *
 * <pre>
 *   byte     format version (2)
 *   byte     compression id (0 none, 1 gzip)
 *   bytes    compressed body:
 *              varint   point count n
 *              DDC      n timestamps ({@link DateDeltaCompaction})
 *              values   n values ({@link ValueEncoding}; its mode byte also gives the value type)
 *   int32    CRC-32 of the uncompressed body (big-endian)
 * </pre>
 *
 * <p>Version 1 is the same without the CRC; it relied on gzip's. Blobs are mostly stored without
 * a compressor of their own now (the store compresses blocks of records), so the checksum is the
 * blob's own. New layouts get a new version byte; {@link #decode} keeps reading every older one.
 */
public final class ChunkCodec {

  public static final int FORMAT_VERSION = 2;
  private static final int CRC_BYTES = 4;

  private final Compression compression;
  private final long ddcThreshold;

  /**
   * @param ddcThreshold nanoseconds a timestamp may move (0 = lossless)
   */
  public ChunkCodec(Compression compression, long ddcThreshold) {
    if (ddcThreshold < 0) {
      throw new IllegalArgumentException("DDC threshold must not be negative: " + ddcThreshold);
    }
    this.compression = compression;
    this.ddcThreshold = ddcThreshold;
  }

  /** Lossless gzip, the default. */
  public static ChunkCodec lossless() {
    return new ChunkCodec(Compressions.GZIP, 0);
  }

  public Compression compression() {
    return compression;
  }

  public byte[] encode(Points points) {
    int n = points.size();
    ByteWriter body = new ByteWriter(n * 3 + 16);
    body.writeVarLong(n);
    DateDeltaCompaction.encode(points.timestampArray(), n, ddcThreshold, body);
    ValueEncoding.encode(points, body);
    byte[] compressed = compression.compress(body.array(), 0, body.size());
    byte[] blob = new byte[compressed.length + 2 + CRC_BYTES];
    blob[0] = (byte) FORMAT_VERSION;
    blob[1] = (byte) compression.id();
    System.arraycopy(compressed, 0, blob, 2, compressed.length);
    writeInt(blob, blob.length - CRC_BYTES, crc(body.array(), body.size()));
    return blob;
  }

  private static int crc(byte[] bytes, int length) {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(bytes, 0, length);
    return (int) crc.getValue();
  }

  private static void writeInt(byte[] target, int offset, int value) {
    for (int i = 0; i < 4; i++) {
      target[offset + i] = (byte) (value >>> (24 - 8 * i));
    }
  }

  private static int readInt(byte[] source, int offset) {
    int value = 0;
    for (int i = 0; i < 4; i++) {
      value = (value << 8) | (source[offset + i] & 0xFF);
    }
    return value;
  }

  /**
   * Bounds of one decode, checked before anything of that size is allocated: the decompressed
   * body and the point count. A blob beyond them is refused as a {@link CorruptBlobException}.
   */
  public record Limits(long maxBodyBytes, int maxPoints) {
    /** Far beyond any record the server writes (chunk.maxBytes is 1 MiB by default). */
    public static final Limits DEFAULT = new Limits(64L << 20, 8 << 20);
  }

  /** Decodes a blob of any known format version within {@link Limits#DEFAULT}. */
  public static Points decode(byte[] blob) {
    return decode(blob, Limits.DEFAULT);
  }

  /** Decodes a blob of any known format version within the limits. */
  public static Points decode(byte[] blob, Limits limits) {
    if (blob == null || blob.length < 2) {
      throw new CorruptBlobException("blob too short to hold a header");
    }
    int version = blob[0] & 0xFF;
    byte[] body;
    if (version == 1) {
      body = Compressions.byId(blob[1] & 0xFF).decompress(blob, 2, blob.length - 2, limits.maxBodyBytes());
    } else if (version == FORMAT_VERSION) {
      if (blob.length < 2 + CRC_BYTES) {
        throw new CorruptBlobException("blob too short to hold its checksum");
      }
      body = Compressions.byId(blob[1] & 0xFF).decompress(blob, 2, blob.length - 2 - CRC_BYTES, limits.maxBodyBytes());
      int expected = readInt(blob, blob.length - CRC_BYTES);
      if (crc(body, body.length) != expected) {
        throw new CorruptBlobException("checksum mismatch: the blob is damaged");
      }
    } else {
      throw new CorruptBlobException("unknown blob format version " + version);
    }
    ByteReader in = new ByteReader(body, 0, body.length);
    long count = in.readVarLong();
    // every point takes at least one byte of its timestamp's encoding
    if (count < 0 || count > body.length) {
      throw new CorruptBlobException("implausible point count " + count + " in a body of " + body.length + " bytes");
    }
    if (count > limits.maxPoints()) {
      throw new CorruptBlobException("blob of " + count + " points exceeds the limit of " + limits.maxPoints());
    }
    int n = (int) count;
    long[] timestamps = DateDeltaCompaction.decode(in, n);
    Points points = ValueEncoding.decode(in, timestamps, n);
    if (in.hasRemaining()) {
      throw new CorruptBlobException("trailing bytes after " + n + " points");
    }
    return points;
  }
}
