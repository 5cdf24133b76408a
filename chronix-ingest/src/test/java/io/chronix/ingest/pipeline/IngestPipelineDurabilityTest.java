package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.wal.FaultyFiles;
import io.chronix.ingest.wal.FsyncPolicy;
import io.chronix.ingest.wal.SegmentLedger;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code wal.fsync=always} a write returns only once its entry is on disk, and its points go
 * into the buffers while the fsync runs; a failed fsync says the points may be stored.
 */
class IngestPipelineDurabilityTest {

  @TempDir Path dir;
  private final FaultyFiles disk = new FaultyFiles();
  private final SegmentLedger ledger = new SegmentLedger();
  private final AtomicLong clock = new AtomicLong();
  private WriteAheadLog wal;
  private SeriesBuffers buffers;
  private IngestPipeline pipeline;

  @BeforeEach
  void open() throws IOException {
    wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000, disk, clock::get);
    wal.replay((batch, segment) -> {});
    buffers = new SeriesBuffers(10_000, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> points, Runnable::run,
        ledger);
    pipeline = new IngestPipeline(wal, ledger, buffers, () -> {}, Long.MAX_VALUE, 1_000, () -> {});
  }

  @AfterEach
  void close() throws IOException {
    disk.failFsync.set(false);
    wal.close();
  }

  private static PointBatch hosts(int from, int to) {
    PointBatch batch = new PointBatch();
    for (int host = from; host < to; host++) {
      batch.accept(SeriesKey.metric("cpu", Map.of("host", "h" + host)), 1, host);
    }
    return batch;
  }

  @Test
  void theBatchIsBufferedWhileItsEntryIsSyncedAndReturnsOnceSynced() throws IOException {
    AtomicReference<String> syncedBy = new AtomicReference<>();
    AtomicBoolean bufferedDuringFsync = new AtomicBoolean();
    disk.atFsync = () -> { // holds the fsync until the writer has buffered the points, or 5 s
      syncedBy.set(Thread.currentThread().getName());
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (buffers.bufferedPoints() < 4 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      bufferedDuringFsync.set(buffers.bufferedPoints() == 4);
    };
    int before = disk.fsyncs.get();
    pipeline.write(hosts(0, 4));
    assertEquals(before + 1, disk.fsyncs.get(), "the entry was synced before the write returned");
    assertEquals("chronix-wal-sync", syncedBy.get(), "the fsync ran on the log's syncer");
    assertTrue(bufferedDuringFsync.get(), "the points went into the buffers while the fsync ran");
  }

  @Test
  void aFailedFsyncRefusesTheWriteAndSaysItsPointsMayBeStored() throws IOException {
    pipeline.write(hosts(0, 2));
    disk.failFsync.set(true);
    WriteAheadLog.LogFailedException refused = assertThrows(WriteAheadLog.LogFailedException.class,
        () -> pipeline.write(hosts(2, 5)));
    assertTrue(refused.getMessage().contains("not acknowledged, but its points may be stored"), refused.getMessage());
    assertEquals(5, buffers.bufferedPoints(), "the refused batch's points are buffered, not lost half-way");
    assertThrows(WriteAheadLog.LogFailedException.class, () -> pipeline.write(hosts(5, 6)));
    assertEquals(5, buffers.bufferedPoints(), "a write refused before the log takes it leaves nothing");
  }
}
