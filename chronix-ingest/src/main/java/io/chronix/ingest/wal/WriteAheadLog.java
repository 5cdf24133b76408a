package io.chronix.ingest.wal;

import io.chronix.core.codec.CorruptBlobException;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: every batch is appended here before it enters the buffers, and replayed on
 * start. Segments ({@code segment-<sequence>.wal}) roll at a size; a segment is deleted once every
 * point in it is committed to the store ({@link #deleteBefore}).
 *
 * <p>Segment format version 1: 4 bytes magic {@code CXWL}, 1 byte version; then entries of
 * {@code int length, int crc32, payload} ({@link WalEntries}). A torn entry at the end (the process
 * died while writing it) was never acknowledged and is cut off on replay.
 *
 * <p>Group commit: writers append under a lock, then wait for an fsync that covers their entry;
 * one fsync covers every entry appended before it started, so concurrent writers share it.
 */
public final class WriteAheadLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
  private static final byte[] MAGIC = {'C', 'X', 'W', 'L'};
  private static final int VERSION = 1;
  private static final int HEADER = MAGIC.length + 1;

  /** Receives replayed batches with the segment they came from. */
  @FunctionalInterface
  public interface Replay {
    void apply(PointBatch batch, long segment) throws IOException;
  }

  private final Path dir;
  private final long segmentBytes;
  private final FsyncPolicy policy;
  private final Object appendLock = new Object();
  private final Object syncLock = new Object();
  private final ScheduledExecutorService syncer;
  private FileChannel channel;
  private long segment;
  private long written;
  private volatile long synced;
  private long generation; // counts appends across segments, so positions compare across rolls

  public WriteAheadLog(Path dir, long segmentBytes, FsyncPolicy policy, long intervalMillis) throws IOException {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
    this.policy = policy;
    Files.createDirectories(dir);
    syncer = policy == FsyncPolicy.INTERVAL ? Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "chronix-wal-sync");
      thread.setDaemon(true);
      return thread;
    }) : null;
    if (syncer != null) {
      syncer.scheduleWithFixedDelay(this::syncQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }
  }

  /** Replays every segment in order, then opens a fresh segment for new appends. */
  public long replay(Replay replay) throws IOException {
    long batches = 0;
    long last = 0;
    for (long sequence : segments()) {
      batches += replaySegment(sequence, replay);
      last = sequence;
    }
    synchronized (appendLock) {
      openSegment(last + 1);
    }
    return batches;
  }

  private long replaySegment(long sequence, Replay replay) throws IOException {
    Path file = file(sequence);
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < HEADER || !startsWithMagic(bytes)) {
      LOG.warn("WAL segment {} has no valid header; skipping it", file);
      return 0;
    }
    int position = HEADER;
    long batches = 0;
    while (position + 8 <= bytes.length) {
      ByteBuffer frame = ByteBuffer.wrap(bytes, position, 8);
      int length = frame.getInt();
      int crc = frame.getInt();
      if (length < 0 || position + 8L + length > bytes.length) {
        break;
      }
      CRC32 check = new CRC32();
      check.update(bytes, position + 8, length);
      if ((int) check.getValue() != crc) {
        break;
      }
      byte[] payload = new byte[length];
      System.arraycopy(bytes, position + 8, payload, 0, length);
      try {
        replay.apply(WalEntries.decode(payload), sequence);
      } catch (CorruptBlobException e) {
        LOG.error("WAL segment {}: entry at byte {} cannot be decoded ({}); skipping it", file, position, e.getMessage());
      }
      position += 8 + length;
      batches++;
    }
    if (position < bytes.length) {
      // a torn tail: the writer died mid-entry, before that write was acknowledged
      LOG.warn("WAL segment {}: cutting {} bytes of an incomplete entry at byte {}", file, bytes.length - position, position);
      try (FileChannel truncate = FileChannel.open(file, StandardOpenOption.WRITE)) {
        truncate.truncate(position);
        truncate.force(true);
      }
    }
    return batches;
  }

  private static boolean startsWithMagic(byte[] bytes) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (bytes[i] != MAGIC[i]) {
        return false;
      }
    }
    return bytes[MAGIC.length] == VERSION;
  }

  /**
   * Appends a batch; returns once it is as durable as the policy promises.
   *
   * @return the segment that holds the batch
   */
  public long append(PointBatch batch) throws IOException {
    byte[] payload = WalEntries.encode(batch);
    CRC32 crc = new CRC32();
    crc.update(payload);
    ByteBuffer frame = ByteBuffer.allocate(8 + payload.length);
    frame.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
    long mySegment;
    long myPosition;
    synchronized (appendLock) {
      if (channel == null) {
        throw new IOException("write-ahead log is closed");
      }
      if (written >= segmentBytes) {
        syncNow(); // a rolled-away segment must be complete on disk
        openSegment(segment + 1);
      }
      while (frame.hasRemaining()) {
        channel.write(frame);
      }
      written += 8 + payload.length;
      generation += 8 + payload.length;
      mySegment = segment;
      myPosition = generation;
    }
    if (policy == FsyncPolicy.ALWAYS) {
      syncUpTo(myPosition);
    }
    return mySegment;
  }

  private void syncUpTo(long position) throws IOException {
    if (synced >= position) {
      return;
    }
    synchronized (syncLock) {
      if (synced >= position) {
        return; // another writer's fsync covered this entry
      }
      syncNow();
    }
  }

  private void syncNow() throws IOException {
    long target;
    FileChannel current;
    synchronized (appendLock) {
      target = generation;
      current = channel;
    }
    if (current != null && current.isOpen()) {
      current.force(false);
    }
    synced = Math.max(synced, target);
  }

  private void syncQuietly() {
    try {
      synchronized (syncLock) {
        syncNow();
      }
    } catch (IOException e) {
      LOG.error("WAL fsync failed: {}", e.getMessage());
    }
  }

  private void openSegment(long sequence) throws IOException {
    if (channel != null) {
      channel.close();
    }
    segment = sequence;
    channel = FileChannel.open(file(sequence), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    ByteBuffer header = ByteBuffer.allocate(HEADER).put(MAGIC).put((byte) VERSION).flip();
    while (header.hasRemaining()) {
      channel.write(header);
    }
    channel.force(true);
    written = HEADER;
  }

  /** The segment new appends go to; rolling to a new one lets older ones become deletable. */
  public long currentSegment() {
    synchronized (appendLock) {
      return segment;
    }
  }

  /** Starts a new segment so that the current one can be deleted once its points are committed. */
  public void roll() throws IOException {
    synchronized (appendLock) {
      if (written > HEADER) {
        syncNow();
        openSegment(segment + 1);
      }
    }
  }

  /** Deletes segments before the given one; call only when all their points are committed. */
  public int deleteBefore(long sequence) throws IOException {
    int deleted = 0;
    for (long existing : segments()) {
      if (existing < sequence && existing != currentSegment()) {
        Files.deleteIfExists(file(existing));
        deleted++;
      }
    }
    return deleted;
  }

  public List<Long> segments() throws IOException {
    List<Long> sequences = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.map(f -> f.getFileName().toString())
          .filter(name -> name.matches("segment-\\d{20}\\.wal"))
          .forEach(name -> sequences.add(Long.parseLong(name.substring(8, 28))));
    }
    sequences.sort(null);
    return sequences;
  }

  private Path file(long sequence) {
    return dir.resolve(String.format("segment-%020d.wal", sequence));
  }

  @Override
  public void close() throws IOException {
    if (syncer != null) {
      syncer.shutdown();
    }
    synchronized (appendLock) {
      if (channel != null) {
        channel.force(false);
        channel.close();
        channel = null;
      }
    }
  }
}
