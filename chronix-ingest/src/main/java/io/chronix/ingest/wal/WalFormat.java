package io.chronix.ingest.wal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The segment format (docs/formats.md, write-ahead log), the writer's and the reader's one truth.
 *
 * <p>A segment starts with 4 bytes magic {@code CXWL} and 1 byte version. Versions 2, 3 and 4
 * frame each entry so that a reader can find the next entry after damage (3 may hold array values,
 * which a reader of version 2 would misread, so it must not take such a segment for its own; 4
 * numbers its series, {@link SegmentSeries}, which a reader of 3 would read as keys):
 *
 * <pre>
 *   4 bytes  frame magic CXFR
 *   int32    payload length
 *   int32    points in the payload
 *   int32    CRC-32 of the 8 bytes length and points (a damaged header is not trusted)
 *   int32    CRC-32 of the payload
 *   bytes    payload ({@link WalEntries})
 * </pre>
 *
 * <p>Version 1 (read only): {@code int32 length, int32 crc32, payload}, no frame magic.
 */
final class WalFormat {

  static final byte[] MAGIC = {'C', 'X', 'W', 'L'};
  static final int VERSION = 4;
  /** Framed like version 4; every entry holds the keys of all its series. */
  static final int V3 = 3;
  /** Framed like version 3; its entries hold no arrays. */
  static final int V2 = 2;
  static final int V1 = 1;
  static final int SEGMENT_HEADER = MAGIC.length + 1;
  static final byte[] FRAME_MAGIC = {'C', 'X', 'F', 'R'};
  static final int FRAME_HEADER = 20;
  static final int V1_FRAME_HEADER = 8;

  private WalFormat() {}

  static ByteBuffer segmentHeader() {
    return ByteBuffer.allocate(SEGMENT_HEADER).put(MAGIC).put((byte) VERSION).flip();
  }

  /**
   * Frames the payload that follows {@link #FRAME_HEADER} free bytes at the start of
   * {@code bytes[0, end)}, in place.
   */
  static ByteBuffer frame(byte[] bytes, int end, int points) {
    int length = end - FRAME_HEADER;
    ByteBuffer frame = ByteBuffer.wrap(bytes, 0, end);
    frame.put(FRAME_MAGIC).putInt(length).putInt(points).putInt(headerCrc(length, points))
        .putInt(crc(bytes, FRAME_HEADER, length));
    return frame.position(0);
  }

  static int headerCrc(int length, int points) {
    byte[] header = ByteBuffer.allocate(8).putInt(length).putInt(points).array();
    return crc(header, 0, header.length);
  }

  static int crc(byte[] bytes, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
