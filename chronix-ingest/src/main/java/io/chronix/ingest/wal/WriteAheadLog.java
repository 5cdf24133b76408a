package io.chronix.ingest.wal;

import io.chronix.core.codec.ByteWriter;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: every batch is appended here before it enters the buffers, and replayed on
 * start. Segments ({@code segment-<sequence>.wal}, format in {@link WalFormat}) roll at a size; a
 * segment is deleted once every point in it is committed to the store ({@link SegmentLedger}).
 * The directory is synced after a segment is created or deleted, so neither is lost in a crash.
 *
 * <p>Group commit: writers append under a lock, then wait for an fsync that covers their entry;
 * one fsync covers every entry appended before it started, so concurrent writers share it.
 *
 * <p>Failures: a write or fsync that fails puts the log into a failed state in which every append
 * is refused ({@link LogFailedException}, a 503: nothing of the request is acknowledged). The
 * next append at least a second later tries to recover: it cuts the failed segment back to its
 * last complete entry and starts a new segment; if that works, appends are taken again. A failed
 * background fsync ({@code interval} mode) may lose acknowledged entries on power loss: the
 * failure listener then has the buffers written to the store, which does not depend on this log.
 */
public final class WriteAheadLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
  private static final long RECOVERY_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final int RETRY_AFTER_SECONDS = 5;

  /** Receives replayed batches with the segment they came from. */
  @FunctionalInterface
  public interface Replay {
    void apply(PointBatch batch, long segment) throws IOException;
  }

  /** The log cannot take entries: a write or fsync failed and it has not recovered yet. */
  public static final class LogFailedException extends OverloadedException {
    LogFailedException(String message) {
      super(message, RETRY_AFTER_SECONDS);
    }
  }

  /** What replay read and what it could not (docs/durability.md). */
  public record ReplayReport(int segments, long entries, long points, long damagedEntries, long skippedPoints,
      long skippedBytes, long tornBytes) {
    public static final ReplayReport NONE = new ReplayReport(0, 0, 0, 0, 0, 0, 0);
  }

  private final Path dir;
  private final long segmentBytes;
  private final FsyncPolicy policy;
  private final SegmentFiles files;
  private final LongSupplier nanoClock;
  /** The encoding of recently logged series keys: each segment defines its series in full. */
  private final KeyEncodings keyEncodings = new KeyEncodings();
  private final Object appendLock = new Object();
  private final Object syncLock = new Object();
  /** The interval policy's fsyncs; under {@code always}, each entry's fsync begun beside its writer. */
  private final ScheduledExecutorService syncer;
  /** Whether an fsync is asked of the syncer and has not begun: entries written meanwhile share it. */
  private final AtomicBoolean syncAsked = new AtomicBoolean();
  private volatile Runnable failureListener = () -> { };
  private FileChannel channel;
  private long segment;
  /** The series numbers of the segment written now; replaced with the segment, under appendLock. */
  private volatile SegmentSeries segmentSeries = new SegmentSeries();
  private long written;
  private volatile long synced;
  private long generation; // counts appends across segments, so positions compare across rolls
  /** Why the log refuses appends; null while it works. Guarded by appendLock. */
  private IOException failure;
  /** What the last failed fsync left unsynced for good; null before any. Written where an fsync fails. */
  private volatile Unsynced unsynced;
  private long lastRecoveryAttempt;
  private volatile ReplayReport replayReport = ReplayReport.NONE;

  public WriteAheadLog(Path dir, long segmentBytes, FsyncPolicy policy, long intervalMillis) throws IOException {
    this(dir, segmentBytes, policy, intervalMillis, SegmentFiles.DISK, System::nanoTime);
  }

  public WriteAheadLog(Path dir, long segmentBytes, FsyncPolicy policy, long intervalMillis, SegmentFiles files,
      LongSupplier nanoClock) throws IOException {
    this(dir, segmentBytes, policy, intervalMillis, files, nanoClock, WriteAheadLog::syncerThread);
  }

  /** As above, the syncer's thread made by {@code syncerThreads} (a test holds it back). */
  WriteAheadLog(Path dir, long segmentBytes, FsyncPolicy policy, long intervalMillis, SegmentFiles files,
      LongSupplier nanoClock, ThreadFactory syncerThreads) throws IOException {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
    this.policy = policy;
    this.files = files;
    this.nanoClock = nanoClock;
    Files.createDirectories(dir);
    syncer = policy != FsyncPolicy.NEVER ? Executors.newSingleThreadScheduledExecutor(syncerThreads) : null;
    if (policy == FsyncPolicy.INTERVAL) {
      syncer.scheduleWithFixedDelay(this::syncOffThread, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }
  }

  private static Thread syncerThread(Runnable syncs) {
    Thread thread = new Thread(syncs, "chronix-wal-sync");
    thread.setDaemon(true);
    return thread;
  }

  /** Runs when the log fails (elsewhere; must not block). */
  public void onFailure(Runnable listener) {
    this.failureListener = listener;
  }

  /** Replays every segment in order, then opens a fresh segment for new appends. */
  public long replay(Replay replay) throws IOException {
    List<Long> sequences = segments();
    long batches = 0;
    long points = 0;
    long damaged = 0;
    long skippedPoints = 0;
    long skippedBytes = 0;
    long torn = 0;
    long last = 0;
    for (int i = 0; i < sequences.size(); i++) {
      long sequence = sequences.get(i);
      Path file = file(sequence);
      SegmentReader.Result result = SegmentReader.read(file, i == sequences.size() - 1,
          batch -> replay.apply(batch, sequence));
      if (!result.headerValid()) {
        LOG.error("WAL segment {} has no valid header; skipping its {} bytes", file, result.skippedBytes());
      }
      if (result.skippedBytes() > 0 || result.damagedEntries() > 0) {
        LOG.error("WAL segment {} is damaged: {} entries with {} points could not be read, {} bytes skipped; "
            + "read on after the damage", file, result.damagedEntries(), result.skippedPoints(), result.skippedBytes());
      }
      if (result.tornBytes() > 0) {
        // the writer died mid-entry, before that write was acknowledged
        LOG.warn("WAL segment {}: cutting {} bytes of an incomplete last entry", file, result.tornBytes());
        try (FileChannel truncate = FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
          truncate.truncate(result.validLength());
          truncate.force(true);
        }
      }
      batches += result.entries();
      points += result.points();
      damaged += result.damagedEntries();
      skippedPoints += result.skippedPoints();
      skippedBytes += result.skippedBytes();
      torn += result.tornBytes();
      last = sequence;
    }
    replayReport = new ReplayReport(sequences.size(), batches, points, damaged, skippedPoints, skippedBytes, torn);
    synchronized (appendLock) {
      openSegment(last + 1);
    }
    return batches;
  }

  public ReplayReport replayReport() {
    return replayReport;
  }

  /**
   * Writers of entries up to this size are kept for the next appends: a request of ten thousand
   * series makes an entry of half a megabyte, a sixth of all the write path allocated.
   */
  private static final int REUSED_ENTRY_BYTES = 2 << 20;
  private final ArrayBlockingQueue<ByteWriter> entryWriters = new ArrayBlockingQueue<>(4);

  /**
   * Appends a batch; returns once it is as durable as the policy promises.
   *
   * @return the segment that holds the batch
   * @throws LogFailedException when the log is failed (also when this write made it fail)
   */
  public long append(PointBatch batch) throws IOException {
    Written written = write(batch);
    awaitDurable(written);
    return written.segment();
  }

  /**
   * An entry written to the log (to the operating system), not necessarily on disk yet: its
   * segment, and where it ends among all entries of this log.
   */
  public record Written(long segment, long position) {}

  /**
   * Writes a batch without waiting for its fsync, so that the caller can put the points into the
   * buffers meanwhile and then {@link #awaitDurable wait}: a request of ten thousand series waited
   * a millisecond for its fsync before it went on. Under {@code fsync=always} the fsync starts on
   * the log's syncer thread at once, beside the caller's work.
   *
   * @throws LogFailedException when the log is failed (also when this write made it fail);
   *     nothing of the batch is then in the log
   */
  public Written write(PointBatch batch) throws IOException {
    // encoded outside the lock for the segment written now; should the log move to another one
    // before the lock is taken, the entry is encoded again for that one under the lock
    WalEntries.Numbered entry = WalEntries.encode(batch, keyEncodings, segmentSeries, WalFormat.FRAME_HEADER,
        entryWriters.poll());
    try {
      Appended appended = write(batch, entry);
      entry = appended.entry();
      entry.defined();
      if (policy == FsyncPolicy.ALWAYS) {
        syncSoon();
      }
      return appended.written();
    } finally {
      if (entry.bytes().capacity() <= REUSED_ENTRY_BYTES) {
        entryWriters.offer(entry.bytes());
      }
    }
  }

  /**
   * Returns once the entry is as durable as the policy promises ({@code always}: on disk).
   *
   * @throws LogFailedException when its fsync failed: the log is failed from then on. The entry
   *     may still be in the buffers of a caller that put it there before waiting; the message
   *     says so, since "nothing stored" would not be true.
   */
  public void awaitDurable(Written written) throws IOException {
    if (policy != FsyncPolicy.ALWAYS) {
      return;
    }
    try {
      syncUpTo(written.position());
    } catch (IOException e) {
      synchronized (appendLock) {
        fail("fsync of segment " + written.segment() + " failed", e);
        throw notOnDisk(failure.getMessage());
      }
    }
    Unsynced lost = unsynced;
    if (lost != null && lost.holds(written.position())) {
      // written before an fsync failed, waited for only after the log recovered: the fsyncs since
      // then do not vouch for it
      throw notOnDisk(lost.why());
    }
  }

  private static LogFailedException notOnDisk(String why) {
    return new LogFailedException("the write-ahead log failed (" + why + ") before this request"
        + " was on disk: it is not acknowledged, but its points may be stored (they were buffered while the log"
        + " synced, and the buffers go to the store when the log fails); a retry stores each point once, as a"
        + " point sent again replaces the one with its timestamp. Writes are refused until the log recovers:"
        + " retry later");
  }

  /**
   * The entries of the last failure: written after the last fsync that worked ({@code after},
   * exclusive) up to the failure ({@code upTo}). An fsync after a failed one may succeed although
   * the pages the failed one lost are gone, so none ever counts for them.
   */
  private record Unsynced(long after, long upTo, String why) {
    boolean holds(long position) {
      return position > after && position <= upTo;
    }
  }

  /** An entry as it went into the log, and where. */
  private record Appended(Written written, WalEntries.Numbered entry) {}

  private Appended write(PointBatch batch, WalEntries.Numbered encoded) throws IOException {
    synchronized (appendLock) {
      if (channel == null && failure == null) {
        throw new IOException("write-ahead log is closed");
      }
      if (failure != null && !recover()) {
        throw refused();
      }
      if (written >= segmentBytes) {
        try {
          syncNow(); // a rolled-away segment must be complete on disk
          openSegment(segment + 1);
        } catch (IOException e) {
          throw fail("rolling to a new segment failed", e);
        }
      }
      WalEntries.Numbered entry = encoded.segment() == segmentSeries ? encoded
          : WalEntries.encode(batch, keyEncodings, segmentSeries, WalFormat.FRAME_HEADER, encoded.bytes());
      ByteBuffer frame = WalFormat.frame(entry.bytes().array(), entry.bytes().size(), batch.size());
      long before = written;
      try {
        while (frame.hasRemaining()) {
          channel.write(frame);
        }
      } catch (IOException e) {
        cutBack(before);
        throw fail("writing to segment " + segment + " failed", e);
      }
      written += frame.limit();
      generation += frame.limit();
      return new Appended(new Written(segment, generation), entry);
    }
  }

  /** Whether the log refuses appends now, and why. */
  public String failure() {
    synchronized (appendLock) {
      return failure == null ? null : failure.getMessage();
    }
  }

  /** Called under appendLock. */
  private LogFailedException fail(String what, IOException cause) {
    if (failure == null) {
      failure = new IOException(what + ": " + cause.getMessage(), cause);
      lastRecoveryAttempt = nanoClock.getAsLong();
      LOG.error("write-ahead log failed ({}): refusing writes until it recovers", failure.getMessage());
      failureListener.run();
    }
    return refused();
  }

  private LogFailedException refused() {
    return new LogFailedException("the write-ahead log failed (" + failure.getMessage() + "); nothing of this request"
        + " is stored and writes are refused until it recovers: retry later");
  }

  /** A partial entry at the end of the segment must not stay there: cut back to the last whole one. */
  private void cutBack(long position) {
    try {
      channel.truncate(position);
      channel.position(position);
    } catch (IOException e) {
      LOG.warn("cutting segment {} back to byte {} failed: {}; replay will skip what follows", segment, position,
          e.getMessage());
    }
  }

  /** Called under appendLock: at most once a second, starts a new segment; true when that worked. */
  private boolean recover() {
    long now = nanoClock.getAsLong();
    if (now - lastRecoveryAttempt < RECOVERY_INTERVAL_NANOS) {
      return false;
    }
    lastRecoveryAttempt = now;
    try {
      openSegment(segment + 1);
      LOG.warn("write-ahead log recovered: taking writes again in segment {}", segment);
      failure = null;
      return true;
    } catch (IOException e) {
      LOG.warn("write-ahead log still failing: {}", e.getMessage());
      return false;
    }
  }

  /**
   * Starts an fsync of what is written now on the syncer's thread, so that it runs while the
   * writer puts the entry's points into the buffers: the writer then waits only for what is left
   * of it ({@link #awaitDurable}). Appends while one is asked and not begun share it.
   */
  private void syncSoon() {
    if (syncAsked.compareAndSet(false, true)) {
      try {
        syncer.execute(this::syncOffThread);
      } catch (RejectedExecutionException closing) {
        syncAsked.set(false); // the writer's own wait syncs
      }
    }
  }

  /** How long a writer waits for an fsync it asked of the syncer before it runs one itself. */
  private static final long SYNCER_PATIENCE_NANOS = 1_000_000_000L;

  private void syncUpTo(long position) throws IOException {
    if (synced >= position) {
      return;
    }
    synchronized (syncLock) {
      // an fsync asked of the syncer after this entry was written covers it: wait for that one
      // rather than run another (unless the syncer does not come to it); real time, not nanoClock,
      // which paces recovery attempts and stands still in tests
      long deadline = System.nanoTime() + SYNCER_PATIENCE_NANOS;
      boolean interrupted = false;
      while (synced < position && syncAsked.get() && System.nanoTime() < deadline) {
        try {
          syncLock.wait(10);
        } catch (InterruptedException e) {
          interrupted = true; // then this writer syncs itself: an interrupt must not fail the log
          break;
        }
      }
      try {
        if (synced < position) { // else another fsync covered this entry
          syncNow();
        }
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private void syncNow() throws IOException {
    long target;
    long segmentNow;
    FileChannel current;
    synchronized (appendLock) {
      target = generation;
      segmentNow = segment;
      current = channel;
    }
    if (synced >= target) {
      return; // nothing written since the last fsync
    }
    if (current != null && current.isOpen()) {
      long before = synced;
      try {
        current.force(false);
      } catch (IOException e) {
        unsynced = new Unsynced(before, target, "fsync of segment " + segmentNow + " failed: " + e.getMessage());
        throw e;
      }
    }
    synced = Math.max(synced, target);
  }

  /**
   * An fsync on the syncer's thread: the interval policy's, or under {@code always} the one a
   * writer asked for ({@link #syncSoon}). A failure fails the log, worded under {@code always} as
   * the waiting writers' own fsync failure.
   */
  private void syncOffThread() {
    synchronized (syncLock) {
      try {
        syncAsked.set(false); // appends from here on ask for the next one: this one may not cover them
        syncNow();
      } catch (IOException e) {
        synchronized (appendLock) {
          fail(policy == FsyncPolicy.ALWAYS ? "fsync of segment " + segment + " failed" : "background fsync failed", e);
        }
      } finally {
        syncLock.notifyAll(); // writers waiting for it
      }
    }
  }

  /** Called under appendLock (or before appends start). */
  private void openSegment(long sequence) throws IOException {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.warn("closing segment {} failed: {}", segment, e.getMessage());
      }
      channel = null;
    }
    Path file = file(sequence);
    FileChannel created = files.create(file);
    try {
      ByteBuffer header = WalFormat.segmentHeader();
      while (header.hasRemaining()) {
        created.write(header);
      }
      created.force(true);
      files.syncDirectory(dir);
    } catch (IOException e) {
      created.close();
      try {
        files.delete(file);
      } catch (IOException ignored) {
        // the next attempt takes the next sequence number
      }
      segment = sequence; // never reuse a number a file may still hold
      throw e;
    }
    channel = created;
    segment = sequence;
    segmentSeries = new SegmentSeries();
    written = WalFormat.SEGMENT_HEADER;
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
      if (failure != null || channel == null) {
        return; // the next append recovers, which starts a new segment anyway
      }
      if (written > WalFormat.SEGMENT_HEADER) {
        try {
          syncNow();
          openSegment(segment + 1);
        } catch (IOException e) {
          throw fail("rolling to a new segment failed", e);
        }
      }
    }
  }

  /** Deletes segments before the given one; call only when all their points are committed. */
  public int deleteBefore(long sequence) throws IOException {
    int deleted = 0;
    long current = currentSegment();
    for (long existing : segments()) {
      if (existing < sequence && existing != current) {
        files.delete(file(existing));
        deleted++;
      }
    }
    if (deleted > 0) {
      files.syncDirectory(dir);
    }
    return deleted;
  }

  public List<Long> segments() throws IOException {
    List<Long> sequences = new ArrayList<>();
    try (Stream<Path> list = Files.list(dir)) {
      list.map(f -> f.getFileName().toString())
          .filter(name -> name.matches("segment-\\d{20}\\.wal"))
          .forEach(name -> sequences.add(Long.parseLong(name.substring(8, 28))));
    }
    sequences.sort(null);
    return sequences;
  }

  /** Segments and bytes on disk, the open segment included. */
  public record Footprint(int segments, long bytes) {}

  /** What the log takes on disk now: one listing of its directory. */
  public Footprint footprint() throws IOException {
    List<Long> segments = segments();
    long bytes = 0;
    for (long segment : segments) {
      try {
        bytes += Files.size(file(segment));
      } catch (java.nio.file.NoSuchFileException deletedMeanwhile) {
        // a segment deleted after its records were written: no longer part of the log
      }
    }
    return new Footprint(segments.size(), bytes);
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
        try {
          channel.force(false);
        } finally {
          channel.close();
          channel = null;
        }
      }
    }
  }
}
