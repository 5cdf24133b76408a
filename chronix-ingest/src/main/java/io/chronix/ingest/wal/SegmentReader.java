package io.chronix.ingest.wal;

import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the entries of one segment, any version, and says what it could not read.
 *
 * <p>Damage at the end of the newest segment, with no readable entry after it, is a torn tail:
 * the process died while writing an entry that was therefore never acknowledged, and the writer
 * cuts it off. Damage anywhere else is corruption: a version 2 reader reports it, counts the
 * points of damaged entries whose header is intact, skips to the next readable frame and reads on.
 */
final class SegmentReader {

  /** Receives the readable entries. */
  @FunctionalInterface
  interface Entries {
    void accept(PointBatch batch) throws IOException;
  }

  /**
   * What reading one segment found.
   *
   * @param validLength where the readable part ends (a torn tail begins)
   */
  record Result(long entries, long points, long damagedEntries, long skippedPoints, long skippedBytes,
      long tornBytes, long validLength, boolean headerValid) {}

  private SegmentReader() {}

  static Result read(Path file, boolean newest, Entries entries) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < WalFormat.SEGMENT_HEADER || !startsWith(bytes, 0, WalFormat.MAGIC)) {
      return new Result(0, 0, 0, 0, bytes.length, 0, 0, false);
    }
    int version = bytes[WalFormat.MAGIC.length];
    if (version == WalFormat.V1) {
      return readV1(bytes, entries);
    }
    if (version != WalFormat.VERSION && version != WalFormat.V3 && version != WalFormat.V2) {
      return new Result(0, 0, 0, 0, bytes.length, 0, 0, false);
    }
    return readFramed(bytes, newest, version == WalFormat.VERSION ? new HashMap<>() : null, entries);
  }

  /**
   * Versions 2 to 4; {@code numbered} collects the series numbers a version 4 segment's entries
   * define (null for the others, whose entries hold their keys).
   */
  private static Result readFramed(byte[] bytes, boolean newest, Map<Integer, SeriesKey> numbered, Entries entries)
      throws IOException {
    long read = 0;
    long points = 0;
    long damaged = 0;
    long skippedPoints = 0;
    long skippedBytes = 0;
    int position = WalFormat.SEGMENT_HEADER;
    while (position < bytes.length) {
      Frame frame = Frame.at(bytes, position);
      if (frame != null && frame.payloadIntact) {
        PointBatch batch = decode(bytes, frame, numbered);
        if (batch != null) {
          entries.accept(batch);
          read++;
          points += batch.size();
        } else {
          damaged++;
          skippedPoints += frame.points;
        }
        position = frame.end;
        continue;
      }
      int next = nextFrame(bytes, position + 1);
      if (next < 0) {
        if (newest) {
          return new Result(read, points, damaged, skippedPoints, skippedBytes, bytes.length - position, position, true);
        }
        // an older segment was complete on disk when the log moved on: this is corruption, not a torn write
        skippedBytes += bytes.length - position;
        if (frame != null) {
          damaged++;
          skippedPoints += frame.points;
        }
        break;
      }
      if (frame != null) {
        damaged++;
        skippedPoints += frame.points;
      }
      skippedBytes += next - position;
      position = next;
    }
    return new Result(read, points, damaged, skippedPoints, skippedBytes, 0, bytes.length, true);
  }

  /**
   * The payload decoded, or null when it passes its check but is no batch (a writer's bug), or
   * names a series number whose defining entry was damaged.
   */
  private static PointBatch decode(byte[] bytes, Frame frame, Map<Integer, SeriesKey> numbered) {
    byte[] payload = new byte[frame.length];
    System.arraycopy(bytes, frame.payloadStart, payload, 0, frame.length);
    try {
      return numbered != null ? WalEntries.decode(payload, numbered) : WalEntries.decode(payload);
    } catch (CorruptBlobException e) {
      return null;
    }
  }

  /** The next position from which a whole, intact frame can be read; -1 when none. */
  private static int nextFrame(byte[] bytes, int from) {
    for (int i = from; i + WalFormat.FRAME_HEADER <= bytes.length; i++) {
      if (bytes[i] == WalFormat.FRAME_MAGIC[0] && startsWith(bytes, i, WalFormat.FRAME_MAGIC)) {
        Frame frame = Frame.at(bytes, i);
        if (frame != null && frame.payloadIntact) {
          return i;
        }
      }
    }
    return -1;
  }

  /** A frame whose header is intact; the payload may not be. */
  private static final class Frame {
    final int length;
    final int points;
    final int payloadStart;
    final int end;
    final boolean payloadIntact;

    private Frame(int length, int points, int payloadStart, boolean payloadIntact) {
      this.length = length;
      this.points = points;
      this.payloadStart = payloadStart;
      this.end = payloadStart + length;
      this.payloadIntact = payloadIntact;
    }

    /** Null when no intact frame header starts here, or the payload runs past the end. */
    static Frame at(byte[] bytes, int position) {
      if (position + WalFormat.FRAME_HEADER > bytes.length || !startsWith(bytes, position, WalFormat.FRAME_MAGIC)) {
        return null;
      }
      ByteBuffer header = ByteBuffer.wrap(bytes, position + WalFormat.FRAME_MAGIC.length, 16);
      int length = header.getInt();
      int points = header.getInt();
      int headerCrc = header.getInt();
      int payloadCrc = header.getInt();
      if (headerCrc != WalFormat.headerCrc(length, points) || length < 0) {
        return null;
      }
      int start = position + WalFormat.FRAME_HEADER;
      if ((long) start + length > bytes.length) {
        return null;
      }
      return new Frame(length, points, start, WalFormat.crc(bytes, start, length) == payloadCrc);
    }
  }

  /** Version 1 has no frame magic: reading stops at the first damaged entry, which ends the segment. */
  private static Result readV1(byte[] bytes, Entries entries) throws IOException {
    int position = WalFormat.SEGMENT_HEADER;
    long read = 0;
    long points = 0;
    long damaged = 0;
    while (position + WalFormat.V1_FRAME_HEADER <= bytes.length) {
      ByteBuffer frame = ByteBuffer.wrap(bytes, position, WalFormat.V1_FRAME_HEADER);
      int length = frame.getInt();
      int crc = frame.getInt();
      int start = position + WalFormat.V1_FRAME_HEADER;
      if (length < 0 || (long) start + length > bytes.length || WalFormat.crc(bytes, start, length) != crc) {
        break;
      }
      byte[] payload = new byte[length];
      System.arraycopy(bytes, start, payload, 0, length);
      try {
        PointBatch batch = WalEntries.decode(payload);
        entries.accept(batch);
        read++;
        points += batch.size();
      } catch (CorruptBlobException e) {
        damaged++;
      }
      position = start + length;
    }
    return new Result(read, points, damaged, 0, 0, bytes.length - position, position, true);
  }

  private static boolean startsWith(byte[] bytes, int offset, byte[] prefix) {
    if (offset + prefix.length > bytes.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[offset + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
