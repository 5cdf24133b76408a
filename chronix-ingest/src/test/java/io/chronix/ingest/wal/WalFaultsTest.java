package io.chronix.ingest.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Damage in segments, full disks and failing fsync: what is read, what is refused, what recovers. */
class WalFaultsTest {

  private static final SeriesKey KEY = SeriesKey.metric("m", Map.of("host", "a"));

  @TempDir Path dir;
  private final FaultyFiles files = new FaultyFiles();
  private final AtomicLong clock = new AtomicLong();
  /** The thread of the last segment fsync, where a test has the fsyncs note it. */
  private final AtomicReference<String> syncedBy = new AtomicReference<>();

  private static PointBatch batch(int first, int count) {
    PointBatch batch = new PointBatch();
    for (int i = first; i < first + count; i++) {
      batch.accept(KEY, i * 1_000_000L, i);
    }
    return batch;
  }

  private WriteAheadLog open(FsyncPolicy policy) throws IOException {
    return new WriteAheadLog(dir, 1 << 20, policy, 50, files, clock::get);
  }

  private static List<Integer> values(WriteAheadLog wal) throws IOException {
    List<Integer> values = new ArrayList<>();
    wal.replay((batch, segment) -> {
      for (int i = 0; i < batch.size(); i++) {
        values.add((int) batch.value(i));
      }
    });
    return values;
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> values = new ArrayList<>();
    for (int i = from; i < to; i++) {
      values.add(i);
    }
    return values;
  }

  private Path segment(long sequence) {
    return dir.resolve(String.format("segment-%020d.wal", sequence));
  }

  /** Offsets of the frames in a segment, read from their headers. */
  private static List<Integer> frameOffsets(byte[] bytes) {
    List<Integer> offsets = new ArrayList<>();
    int position = WalFormat.SEGMENT_HEADER;
    while (position + WalFormat.FRAME_HEADER <= bytes.length) {
      offsets.add(position);
      position += WalFormat.FRAME_HEADER + ByteBuffer.wrap(bytes, position + 4, 4).getInt();
    }
    return offsets;
  }

  private void writeThreeEntries() throws IOException {
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      values(wal);
      wal.append(batch(0, 10));
      wal.append(batch(10, 10));
      wal.append(batch(20, 10));
    }
  }

  @Test
  void aDamagedEntryInTheMiddleIsSkippedCountedAndTheRestRead() throws IOException {
    writeThreeEntries();
    byte[] bytes = Files.readAllBytes(segment(1));
    int second = frameOffsets(bytes).get(1);
    bytes[second + WalFormat.FRAME_HEADER + 7] ^= 0x10; // a flipped bit in the second entry's payload
    Files.write(segment(1), bytes);
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      List<Integer> read = values(wal);
      List<Integer> expected = range(0, 10);
      expected.addAll(range(20, 30));
      assertEquals(expected, read, "the entries before and after the damage");
      WriteAheadLog.ReplayReport report = wal.replayReport();
      assertEquals(1, report.damagedEntries());
      assertEquals(10, report.skippedPoints(), "the damaged entry's header still tells its points");
      assertEquals(0, report.tornBytes());
    }
  }

  @Test
  void aDamagedHeaderIsSkippedToTheNextFrame() throws IOException {
    writeThreeEntries();
    byte[] bytes = Files.readAllBytes(segment(1));
    int second = frameOffsets(bytes).get(1);
    int third = frameOffsets(bytes).get(2);
    bytes[second + 5] ^= 0x01; // the length field: the header check fails, the frame's extent is unknown
    Files.write(segment(1), bytes);
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      List<Integer> expected = range(0, 10);
      expected.addAll(range(20, 30));
      assertEquals(expected, values(wal));
      assertEquals(third - second, wal.replayReport().skippedBytes());
    }
  }

  @Test
  void damageAtTheEndOfAnOlderSegmentIsCorruptionNotATornTail() throws IOException {
    writeThreeEntries();
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      values(wal); // opens segment 2
      wal.append(batch(30, 5));
    }
    byte[] bytes = Files.readAllBytes(segment(1));
    bytes[bytes.length - 2] ^= 0x01;
    Files.write(segment(1), bytes);
    long before = Files.size(segment(1));
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      List<Integer> expected = range(0, 20);
      expected.addAll(range(30, 35));
      assertEquals(expected, values(wal));
      assertEquals(10, wal.replayReport().skippedPoints());
      assertEquals(0, wal.replayReport().tornBytes());
    }
    assertEquals(before, Files.size(segment(1)), "a damaged older segment is reported, not cut");
  }

  @Test
  void aVersionOneSegmentStillReplays() throws IOException {
    byte[] payload = WalEntries.encode(batch(0, 3));
    ByteBuffer v1 = ByteBuffer.allocate(WalFormat.SEGMENT_HEADER + 8 + payload.length);
    v1.put(WalFormat.MAGIC).put((byte) 1).putInt(payload.length).putInt(WalFormat.crc(payload, 0, payload.length))
        .put(payload);
    Files.write(segment(7), v1.array());
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      assertEquals(range(0, 3), values(wal));
      assertEquals(8, wal.currentSegment(), "new appends go to a fresh segment of the current version");
    }
  }

  @Test
  void aFullDiskFailsTheWriteRefusesUntilRecoveryAndLosesNoAcknowledgedEntry() throws IOException {
    AtomicInteger failures = new AtomicInteger();
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      wal.onFailure(failures::incrementAndGet);
      values(wal);
      wal.append(batch(0, 10));
      files.room.set(50); // the next entry does not fit
      WriteAheadLog.LogFailedException full = assertThrows(WriteAheadLog.LogFailedException.class,
          () -> wal.append(batch(10, 10)));
      assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
      assertEquals(1, failures.get());
      assertTrue(wal.failure() != null);
      files.room.set(-1); // space again, but the log waits before it tries
      assertThrows(WriteAheadLog.LogFailedException.class, () -> wal.append(batch(20, 10)));
      files.failCreate.set(true);
      clock.addAndGet(2_000_000_000L);
      assertThrows(WriteAheadLog.LogFailedException.class, () -> wal.append(batch(30, 10)), "recovery fails too");
      files.failCreate.set(false);
      clock.addAndGet(2_000_000_000L);
      long recovered = wal.append(batch(40, 10));
      assertTrue(recovered > 1, "a new segment after the failed one: " + recovered);
      assertEquals(null, wal.failure());
    }
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      List<Integer> expected = range(0, 10);
      expected.addAll(range(40, 50));
      assertEquals(expected, values(wal), "exactly the acknowledged entries");
      assertEquals(0, wal.replayReport().damagedEntries() + wal.replayReport().skippedBytes(),
          "the half-written entry was cut back at once: " + wal.replayReport());
    }
  }

  @Test
  void aFailedFsyncFailsTheWriteAndTheLog() throws IOException {
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      values(wal);
      wal.append(batch(0, 5));
      files.failFsync.set(true);
      WriteAheadLog.LogFailedException failed = assertThrows(WriteAheadLog.LogFailedException.class,
          () -> wal.append(batch(5, 5)));
      assertTrue(failed.getMessage().contains("fsync"), failed.getMessage());
      assertThrows(WriteAheadLog.LogFailedException.class, () -> wal.append(batch(10, 5)));
      files.failFsync.set(false);
      clock.addAndGet(2_000_000_000L);
      wal.append(batch(15, 5));
    }
  }

  @Test
  void aWrittenEntryIsSyncedAtOnceBesideTheWriterAndAFailedSyncSaysThePointsMayBeStored() throws Exception {
    AtomicInteger failures = new AtomicInteger();
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      wal.onFailure(failures::incrementAndGet);
      values(wal);
      int before = files.fsyncs.get();
      files.atFsync = () -> syncedBy.set(Thread.currentThread().getName());
      WriteAheadLog.Written written = wal.write(batch(0, 5));
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (files.fsyncs.get() == before && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertEquals(before + 1, files.fsyncs.get(), "the entry's fsync started without anyone waiting for it");
      assertEquals("chronix-wal-sync", syncedBy.get(), "on the log's syncer, beside the writer's work");
      wal.awaitDurable(written);
      assertEquals(before + 1, files.fsyncs.get(), "an entry already on disk is not synced again");

      files.failFsync.set(true);
      WriteAheadLog.Written unsynced = wal.write(batch(5, 5)); // written; its fsync fails
      WriteAheadLog.LogFailedException failed = assertThrows(WriteAheadLog.LogFailedException.class,
          () -> wal.awaitDurable(unsynced));
      assertTrue(failed.getMessage().contains("fsync of segment " + unsynced.segment()), failed.getMessage());
      assertTrue(failed.getMessage().contains("may be stored"), failed.getMessage());
      assertEquals(1, failures.get(), "the buffers are sent to the store");
      assertThrows(WriteAheadLog.LogFailedException.class, () -> wal.write(batch(10, 5)), "the log is failed");
      files.failFsync.set(false);
      assertThrows(WriteAheadLog.LogFailedException.class, () -> wal.awaitDurable(unsynced),
          "an fsync after a failed one may succeed without the pages the failed one lost: not on disk for the log");
    }
  }

  /**
   * Under {@code always}, a log (replayed, ready for appends) whose syncer thread starts nothing
   * until {@code free} opens: no asked fsync runs. Segment fsyncs note their thread in {@link #syncedBy}.
   */
  private WriteAheadLog openWithSyncerHeld(CountDownLatch free) throws IOException {
    WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 50, files, clock::get, syncs -> {
      Thread thread = new Thread(() -> {
        try {
          free.await();
        } catch (InterruptedException e) {
          return;
        }
        syncs.run();
      }, "held-syncer");
      thread.setDaemon(true);
      return thread;
    });
    values(wal);
    files.atFsync = () -> syncedBy.set(Thread.currentThread().getName());
    return wal;
  }

  @Test
  @Timeout(20) // a writer that waits for the held syncer for ever fails here
  void aWriterWhoseFsyncTheSyncerDoesNotComeToSyncsItselfAfterASecond() throws Exception {
    CountDownLatch free = new CountDownLatch(1);
    try (WriteAheadLog wal = openWithSyncerHeld(free)) {
      int before = files.fsyncs.get();
      long start = System.nanoTime();
      wal.append(batch(0, 5));
      long waitedMillis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(before + 1, files.fsyncs.get(), "the entry is on disk when append returns");
      assertEquals(Thread.currentThread().getName(), syncedBy.get(), "the writer ran the fsync itself");
      assertTrue(waitedMillis >= 900, "it waited for the syncer first: " + waitedMillis + " ms");
    } finally {
      free.countDown();
    }
  }

  @Test
  @Timeout(20) // a writer that waits for the held syncer for ever fails here
  void anInterruptWhileAWriterWaitsForTheSyncerSyncsAtOnceAndKeepsTheInterrupt() throws Exception {
    CountDownLatch free = new CountDownLatch(1);
    try (WriteAheadLog wal = openWithSyncerHeld(free)) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      AtomicBoolean interruptKept = new AtomicBoolean();
      AtomicLong waitedMillis = new AtomicLong();
      Thread writer = new Thread(() -> {
        long start = System.nanoTime();
        try {
          wal.append(batch(0, 5));
        } catch (Throwable e) {
          thrown.set(e);
        }
        waitedMillis.set((System.nanoTime() - start) / 1_000_000);
        interruptKept.set(Thread.currentThread().isInterrupted());
      }, "interrupted-writer");
      writer.start();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (writer.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertEquals(Thread.State.TIMED_WAITING, writer.getState(), "the writer waits for the syncer");
      writer.interrupt();
      writer.join(5_000);
      assertNull(thrown.get(), "an interrupt does not fail the write");
      assertEquals("interrupted-writer", syncedBy.get(), "the writer synced its entry itself");
      assertTrue(waitedMillis.get() < 900, "at the interrupt, not after the syncer's second: " + waitedMillis + " ms");
      assertTrue(interruptKept.get(), "the writer's interrupt is kept for its caller");
      free.countDown();
      wal.append(batch(5, 5)); // the log was not failed (nor its segment closed by the interrupt)
    } finally {
      free.countDown();
    }
  }

  @Test
  void aFailedBackgroundFsyncStopsAcknowledgingAndCallsForAFlush() throws Exception {
    AtomicInteger failures = new AtomicInteger();
    try (WriteAheadLog wal = open(FsyncPolicy.INTERVAL)) {
      wal.onFailure(failures::incrementAndGet);
      values(wal);
      wal.append(batch(0, 5));
      files.failFsync.set(true);
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (failures.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(1, failures.get(), "the failure listener ran");
      assertThrows(WriteAheadLog.LogFailedException.class, () -> wal.append(batch(5, 5)));
      files.failFsync.set(false);
    }
  }

  @Test
  void anFsyncWithNothingNewWrittenIsSkipped() throws IOException {
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      values(wal);
      wal.awaitDurable(wal.write(batch(0, 5)));
      int synced = files.fsyncs.get();
      wal.roll(); // the rolled-away segment must be on disk: it is already
      assertEquals(synced + 1, files.fsyncs.get(), "only the new segment's header is synced");
    }
  }

  @Test
  void theDirectoryIsSyncedWhenSegmentsComeAndGo() throws IOException {
    try (WriteAheadLog wal = open(FsyncPolicy.ALWAYS)) {
      values(wal);
      int afterOpen = files.directorySyncs.get();
      assertEquals(1, afterOpen, "the first segment's creation");
      wal.append(batch(0, 5));
      wal.roll();
      assertEquals(2, files.directorySyncs.get(), "the rolled-to segment's creation");
      wal.deleteBefore(wal.currentSegment());
      assertEquals(3, files.directorySyncs.get(), "the deletion");
    }
  }
}
