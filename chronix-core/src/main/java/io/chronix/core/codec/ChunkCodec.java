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
    writeInt(blob, blob.length - CRC_BYTES, crc(body.array(), 0, body.size()));
    return blob;
  }

  private static int crc(byte[] bytes, int offset, int length) {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(bytes, offset, length);
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
    return decode(blob, limits, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * The points of a blob from {@code fromInclusive} to {@code toExclusive} (timestamps as stored,
   * epoch nanoseconds), within the limits. Where the blob's timestamps are in order, as the server
   * writes them, values after the range are left unread and points outside it are left out; a
   * blob out of order comes back whole, for the caller to clip. The checksum covers the whole body
   * either way.
   */
  public static Points decode(byte[] blob, Limits limits, long fromInclusive, long toExclusive) {
    if (blob == null || blob.length < 2) {
      throw new CorruptBlobException("blob too short to hold a header");
    }
    int version = blob[0] & 0xFF;
    ByteReader in;
    int bodyLength;
    if (version == 1) {
      byte[] body = Compressions.byId(blob[1] & 0xFF).decompress(blob, 2, blob.length - 2, limits.maxBodyBytes());
      in = new ByteReader(body, 0, body.length);
      bodyLength = body.length;
    } else if (version == FORMAT_VERSION) {
      if (blob.length < 2 + CRC_BYTES) {
        throw new CorruptBlobException("blob too short to hold its checksum");
      }
      int compressedLength = blob.length - 2 - CRC_BYTES;
      int compression = blob[1] & 0xFF;
      byte[] body;
      int offset;
      if (compression == NoCompression.ID) { // the default: read in place rather than copied out
        if (compressedLength > limits.maxBodyBytes()) {
          throw new CorruptBlobException("body of " + compressedLength + " bytes exceeds the limit of "
              + limits.maxBodyBytes());
        }
        body = blob;
        offset = 2;
        bodyLength = compressedLength;
      } else {
        body = Compressions.byId(compression).decompress(blob, 2, compressedLength, limits.maxBodyBytes());
        offset = 0;
        bodyLength = body.length;
      }
      int expected = readInt(blob, blob.length - CRC_BYTES);
      if (crc(body, offset, bodyLength) != expected) {
        throw new CorruptBlobException("checksum mismatch: the blob is damaged");
      }
      in = new ByteReader(body, offset, bodyLength);
    } else {
      throw new CorruptBlobException("unknown blob format version " + version);
    }
    long count = in.readVarLong();
    // every point takes at least one byte of its timestamp's encoding
    if (count < 0 || count > bodyLength) {
      throw new CorruptBlobException("implausible point count " + count + " in a body of " + bodyLength + " bytes");
    }
    if (count > limits.maxPoints()) {
      throw new CorruptBlobException("blob of " + count + " points exceeds the limit of " + limits.maxPoints());
    }
    int n = (int) count;
    long[] timestamps = DateDeltaCompaction.decode(in, n);
    int from = 0;
    int to = n;
    if ((fromInclusive != Long.MIN_VALUE || toExclusive != Long.MAX_VALUE) && inOrder(timestamps, n)) {
      from = lowerBound(timestamps, n, fromInclusive);
      to = Math.max(from, lowerBound(timestamps, n, toExclusive));
    }
    Points points = ValueEncoding.decode(in, timestamps, n, to);
    if (to == n && in.hasRemaining()) {
      throw new CorruptBlobException("trailing bytes after " + n + " points");
    }
    return from == 0 ? points : points.slice(from, to);
  }

  private static boolean inOrder(long[] timestamps, int n) {
    for (int i = 1; i < n; i++) {
      if (timestamps[i] < timestamps[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /** The first index whose timestamp is at least {@code timestamp} (n when none is). */
  private static int lowerBound(long[] timestamps, int n, long timestamp) {
    int low = 0;
    int high = n;
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
}
