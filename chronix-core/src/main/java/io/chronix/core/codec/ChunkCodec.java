package io.chronix.core.codec;

import io.chronix.core.series.Points;
import java.util.Arrays;

/**
 * Encodes the points of one chunk into a data blob and back.
 *
 * <p>Blob format version 3 (see docs/formats.md):
 *
 * <pre>
 *   byte     format version (3)
 *   byte     compression id (0 none, 1 gzip, ...)
 *   bytes    compressed body:
 *              varint   point count n
 *              byte     flags: bit 0 set when the timestamps are in order
 *              varint   points a block B (every block holds B points but the last)
 *              per block: varint byte length of its timestamps, varint byte length of its values
 *              per block: DDC of its timestamps ({@link DateDeltaCompaction}, which starts with
 *                         the block's first timestamp)
 *              per block: its values ({@link ValueEncoding}; the mode byte also gives the type)
 *   int32    CRC-32 of the uncompressed body (big-endian)
 * </pre>
 *
 * <p>Blocks are encoded independently, so that a query whose range covers a part of a record
 * decodes only the blocks that reach into it (in a chunk of 8,192 points, an hour of a day-long
 * record was most of a query's time). Points out of order are written as one block. All
 * timestamps come before all values, as in version 2: series scraped together share their
 * timestamps, and the store's block compression finds a record's timestamps again in its
 * neighbour's only where they lie in one piece (blocks interleaved with values made the store 17 %
 * larger).
 *
 * <p>Version 2 is a body of one block without flags, block size and index (varint n, DDC,
 * values); version 1 is version 2 without the CRC, which relied on gzip's. New layouts get a new
 * version byte; {@link #decode} keeps reading every older one.
 */
public final class ChunkCodec {

  public static final int FORMAT_VERSION = 3;
  static final int VERSION_2 = 2;
  /**
   * Points a block: a 1-hour query over a record of 1-second points decodes 4,096 points at most
   * instead of the whole record, at about 15 bytes a block before the store's compression (first
   * timestamp and value written whole, the length).
   */
  public static final int BLOCK_POINTS = 512;
  static final int IN_ORDER = 1;
  private static final int CRC_BYTES = 4;

  private final Compression compression;
  private final long ddcThreshold;
  private final int blockPoints;

  /**
   * @param ddcThreshold nanoseconds a timestamp may move (0 = lossless)
   */
  public ChunkCodec(Compression compression, long ddcThreshold) {
    this(compression, ddcThreshold, BLOCK_POINTS);
  }

  /** With another block size (tests: many blocks in a small chunk). */
  public ChunkCodec(Compression compression, long ddcThreshold, int blockPoints) {
    if (ddcThreshold < 0) {
      throw new IllegalArgumentException("DDC threshold must not be negative: " + ddcThreshold);
    }
    if (blockPoints < 1) {
      throw new IllegalArgumentException("a block holds at least one point: " + blockPoints);
    }
    this.compression = compression;
    this.ddcThreshold = ddcThreshold;
    this.blockPoints = blockPoints;
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
    boolean inOrder = points.isSorted();
    int perBlock = inOrder ? blockPoints : Math.max(1, n);
    int blocks = blockCount(n, perBlock);
    ByteWriter times = new ByteWriter(n * 2 + 16);
    ByteWriter values = new ByteWriter(n * 2 + 16);
    int[] timeLengths = new int[blocks];
    int[] valueLengths = new int[blocks];
    for (int b = 0; b < blocks; b++) {
      int from = b * perBlock;
      int to = Math.min(n, from + perBlock);
      Points block = blocks == 1 ? points : points.slice(from, to);
      int timesBefore = times.size();
      int valuesBefore = values.size();
      DateDeltaCompaction.encode(block.timestampArray(), block.size(), ddcThreshold, times);
      ValueEncoding.encode(block, values);
      timeLengths[b] = times.size() - timesBefore;
      valueLengths[b] = values.size() - valuesBefore;
    }
    ByteWriter body = new ByteWriter(times.size() + values.size() + 16 + 6 * blocks);
    body.writeVarLong(n);
    body.writeByte(inOrder ? IN_ORDER : 0);
    body.writeVarLong(perBlock);
    for (int b = 0; b < blocks; b++) {
      body.writeVarLong(timeLengths[b]);
      body.writeVarLong(valueLengths[b]);
    }
    body.writeBytes(times.array(), 0, times.size());
    body.writeBytes(values.array(), 0, values.size());
    byte[] compressed = compression.compress(body.array(), 0, body.size());
    byte[] blob = new byte[compressed.length + 2 + CRC_BYTES];
    blob[0] = (byte) FORMAT_VERSION;
    blob[1] = (byte) compression.id();
    System.arraycopy(compressed, 0, blob, 2, compressed.length);
    writeInt(blob, blob.length - CRC_BYTES, crc(body.array(), 0, body.size()));
    return blob;
  }

  static int blockCount(long n, long perBlock) {
    return (int) ((n + perBlock - 1) / perBlock);
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
   * writes them, only the blocks reaching into the range are decoded, values after the range are
   * left unread and points outside it are left out; a blob out of order comes back whole, for the
   * caller to clip. The checksum covers the whole body either way.
   */
  public static Points decode(byte[] blob, Limits limits, long fromInclusive, long toExclusive) {
    return decode(blob, limits, fromInclusive, toExclusive, KeptBlocks.NONE);
  }

  /**
   * As {@link #decode(byte[], Limits, long, long)}, with blocks decoded before taken from
   * {@code kept} and the blocks of doubles wholly inside a range that cuts the blob offered to it.
   * The checksum is checked all the same.
   */
  public static Points decode(byte[] blob, Limits limits, long fromInclusive, long toExclusive, KeptBlocks kept) {
    Body body = body(blob, limits);
    if (body.version == FORMAT_VERSION) {
      return decodeBlocks(ChunkBlocks.read(body.in, body.n), fromInclusive, toExclusive, kept);
    }
    return decodeUnblocked(body.in, body.n, fromInclusive, toExclusive);
  }

  /**
   * The blocks of a blob, located and checked but not decoded, or null for a blob of a version
   * before blocks (1 or 2), which only {@link #decode} reads.
   */
  public static ChunkBlocks blocks(byte[] blob, Limits limits) {
    Body body = body(blob, limits);
    return body.version == FORMAT_VERSION ? ChunkBlocks.read(body.in, body.n) : null;
  }

  /**
   * The blob's timestamps in [{@code fromInclusive}, {@code toExclusive}) (nanoseconds), ascending:
   * of a blob in order of this version read from the blocks that reach into the range without
   * their values, else decoded and sorted.
   *
   * @throws CorruptBlobException where the blob is damaged or beyond the limits
   */
  public static long[] timestampsIn(byte[] blob, Limits limits, long fromInclusive, long toExclusive) {
    ChunkBlocks blocks = blocks(blob, limits);
    if (blocks != null && blocks.inOrder()) {
      return blocks.timestampsIn(fromInclusive, toExclusive);
    }
    Points points = decode(blob, limits);
    long[] kept = new long[points.size()];
    int n = 0;
    for (int i = 0; i < points.size(); i++) {
      long timestamp = points.timestamp(i);
      if (timestamp >= fromInclusive && timestamp < toExclusive) {
        kept[n++] = timestamp;
      }
    }
    long[] inRange = java.util.Arrays.copyOf(kept, n);
    java.util.Arrays.sort(inRange);
    return inRange;
  }

  /**
   * Whether the blob holds a point with {@code fromInclusive <= timestamp < toExclusive}
   * (nanoseconds): in a blob in order of this version from its blocks' timestamps alone, else by
   * decoding it.
   *
   * @throws CorruptBlobException where the blob is damaged or beyond the limits
   */
  public static boolean holdsPointIn(byte[] blob, Limits limits, long fromInclusive, long toExclusive) {
    ChunkBlocks blocks = blocks(blob, limits);
    if (blocks != null && blocks.inOrder()) {
      return blocks.holdsTimestampIn(fromInclusive, toExclusive);
    }
    return !decode(blob, limits, fromInclusive, toExclusive).clip(fromInclusive, toExclusive).isEmpty();
  }

  /** A blob's body after its point count, checked against its checksum and the limits. */
  private record Body(int version, ByteReader in, int n) {}

  private static Body body(byte[] blob, Limits limits) {
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
    } else if (version == VERSION_2 || version == FORMAT_VERSION) {
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
    return new Body(version, in, (int) count);
  }

  /** A version 3 body's blocks that the range reaches into, joined. */
  private static Points decodeBlocks(ChunkBlocks blocks, long fromInclusive, long toExclusive, KeptBlocks kept) {
    boolean cut = blocks.inOrder() && (fromInclusive != Long.MIN_VALUE || toExclusive != Long.MAX_VALUE);
    int first = 0;
    int last = blocks.count() - 1;
    if (cut) {
      first = blocks.firstReaching(fromInclusive);
      last = blocks.lastBefore(toExclusive);
      if (first > last) { // none reaches into the range: the last one, for the points' type
        first = blocks.count() - 1;
        last = first;
      }
    }
    Points doubles = cut ? doublesIn(blocks, first, last, fromInclusive, toExclusive, kept)
        : doubles(blocks, first, last);
    if (doubles != null) {
      return doubles;
    }
    java.util.List<Points> decoded = new java.util.ArrayList<>(last - first + 1);
    for (int b = first; b <= last; b++) {
      decoded.add(blocks.decode(b, cut, fromInclusive, toExclusive));
    }
    return decoded.isEmpty() ? new Points(0) : joined(decoded);
  }

  /**
   * Blocks {@code first} to {@code last} of a blob of doubles, decoded into one pair of arrays:
   * block by block, each block's arrays were allocated and then copied into the joined ones, a
   * tenth of a query that decodes whole records. Null where a block holds another type.
   */
  private static Points doubles(ChunkBlocks blocks, int first, int last) {
    int total = points(blocks, first, last);
    long[] timestamps = new long[total];
    double[] values = new double[total];
    int offset = 0;
    for (int b = first; b <= last; b++) {
      if (!blocks.decodeDoublesInto(b, timestamps, values, offset)) {
        return null;
      }
      offset += blocks.size(b);
    }
    return Points.wrap(timestamps, values, total);
  }

  /**
   * The points of blocks {@code first} to {@code last} of an in-order blob of doubles within the
   * range, as {@link #doubles} and a cut would give them: decoded into the thread's scratch arrays
   * (the last block's values only up to the range's end) and copied out at the range's size. An
   * instant query over 10,000 series had decoded two blocks of 512 points a series into arrays of
   * their own to keep some twenty, and collected them again a fifth of its time.
   *
   * <p>A block before the last lies wholly inside the range when it is not the first, or when it
   * starts inside the range: its successor starts before the range ends. Those are taken from
   * {@code kept} where it has them and offered to it where it does not; the ends move with a
   * dashboard's window and are decoded every time, so a query over a few points keeps nothing.
   */
  private static Points doublesIn(ChunkBlocks blocks, int first, int last, long fromInclusive, long toExclusive,
      KeptBlocks kept) {
    DecodeScratch scratch = DecodeScratch.forPoints(points(blocks, first, last));
    long[] timestamps = scratch.timestamps();
    double[] values = scratch.values();
    int end = 0;
    for (int b = first; b <= last; b++) {
      if (b < last) {
        int size = blocks.size(b);
        boolean inside = kept != KeptBlocks.NONE && (b > first || blocks.firstTimestamp(b) >= fromInclusive);
        if (inside) {
          KeptBlocks.DecodedBlock whole = blocks.decodedWhole(b, kept);
          if (whole == null) {
            return null;
          }
          System.arraycopy(whole.timestamps(), 0, timestamps, end, size);
          System.arraycopy(whole.values(), 0, values, end, size);
        } else if (!blocks.decodeDoublesInto(b, timestamps, values, end)) {
          return null;
        }
        end += size;
      } else {
        int before = blocks.decodeDoublesBefore(b, toExclusive, timestamps, values, end);
        if (before < 0) {
          return null;
        }
        end += before;
      }
    }
    int start = Math.min(end, Points.lowerBound(timestamps, end, fromInclusive));
    return Points.wrap(Arrays.copyOfRange(timestamps, start, end), Arrays.copyOfRange(values, start, end), end - start);
  }

  private static int points(ChunkBlocks blocks, int first, int last) {
    int total = 0;
    for (int b = first; b <= last; b++) {
      total += blocks.size(b);
    }
    return total;
  }

  /** Points of one or more blocks, in the order given, as one. */
  private static Points joined(java.util.List<Points> blocks) {
    if (blocks.size() == 1) {
      return blocks.get(0);
    }
    int total = 0;
    for (Points block : blocks) {
      total += block.size();
    }
    Points joined = new Points(blocks.get(0).type(), total);
    for (Points block : blocks) {
      joined.addAll(block);
    }
    return joined;
  }

  /**
   * A version 1 or 2 body after its point count: one block of timestamps, then values; without a
   * flag, whether they are in order is found from the timestamps.
   */
  private static Points decodeUnblocked(ByteReader in, int n, long fromInclusive, long toExclusive) {
    long[] timestamps = DateDeltaCompaction.decode(in, n);
    boolean cut = (fromInclusive != Long.MIN_VALUE || toExclusive != Long.MAX_VALUE) && inOrder(timestamps, n);
    return values(in, timestamps, n, cut, fromInclusive, toExclusive);
  }

  /**
   * The values of {@code n} decoded timestamps, read to the end of {@code in}, or when {@code cut}
   * (the timestamps are in order) only as far as the range reaches, the points cut to the range.
   */
  static Points values(ByteReader in, long[] timestamps, int n, boolean cut, long fromInclusive,
      long toExclusive) {
    int from = 0;
    int to = n;
    if (cut) {
      from = Points.lowerBound(timestamps, n, fromInclusive);
      to = Math.max(from, Points.lowerBound(timestamps, n, toExclusive));
    }
    Points points = ValueEncoding.decode(in, timestamps, n, to);
    if (to == n && in.hasRemaining()) {
      throw new CorruptBlobException(in.remaining() + " trailing bytes after " + n + " values");
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
}
