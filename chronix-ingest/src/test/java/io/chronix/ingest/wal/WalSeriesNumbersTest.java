package io.chronix.ingest.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesHandle;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segment version 4: an entry defines a series the first time its segment holds it, later entries
 * name it by number. Every point comes back with its own series through rolls, two logs sharing
 * handles, concurrent writers and damage.
 */
class WalSeriesNumbersTest {

  @TempDir Path dir;

  private static SeriesHandle[] handles(String host, int count) {
    SeriesHandle[] handles = new SeriesHandle[count];
    for (int i = 0; i < count; i++) {
      handles[i] = new SeriesHandle(SeriesKey.metric("cpu" + i, Map.of("host", host, "region", "eu-west-1")));
    }
    return handles;
  }

  /** A batch of every handle's series, each point's value naming its series and round. */
  private static PointBatch round(SeriesHandle[] handles, int round) {
    PointBatch batch = new PointBatch();
    for (int i = 0; i < handles.length; i++) {
      batch.accept(handles[i], round * 1_000_000L, round * 1_000 + i);
    }
    return batch;
  }

  private WriteAheadLog open(Path at) throws IOException {
    return new WriteAheadLog(at, 1 << 20, FsyncPolicy.NEVER, 1000);
  }

  private static List<PointBatch> replay(WriteAheadLog wal) throws IOException {
    List<PointBatch> batches = new ArrayList<>();
    wal.replay((batch, segment) -> batches.add(batch));
    return batches;
  }

  /** Every point of the batches is the one {@link #round} made for its series. */
  private static void assertOwnSeries(List<PointBatch> batches, SeriesHandle[] handles) {
    for (PointBatch batch : batches) {
      for (int p = 0; p < batch.size(); p++) {
        int series = (int) batch.value(p) % 1_000;
        assertEquals(handles[series].key(), batch.key(p), "point " + batch.value(p));
      }
    }
  }

  private static long segmentSize(Path at, long sequence) throws IOException {
    return Files.size(at.resolve(String.format("segment-%020d.wal", sequence)));
  }

  @Test
  void laterEntriesOfASegmentNameTheirSeriesByNumber() throws IOException {
    SeriesHandle[] handles = handles("a", 100);
    long afterFirst;
    long afterSecond;
    try (WriteAheadLog wal = open(dir)) {
      replay(wal);
      wal.append(round(handles, 1));
      afterFirst = segmentSize(dir, 1);
      wal.append(round(handles, 2));
      afterSecond = segmentSize(dir, 1);
      wal.append(round(handles, 3));
    }
    long first = afterFirst - WalFormat.SEGMENT_HEADER;
    long second = afterSecond - afterFirst;
    assertTrue(second * 3 < first, "the first entry defines 100 series, the second names them: " + first + " / "
        + second + " bytes");
    try (WriteAheadLog wal = open(dir)) {
      List<PointBatch> batches = replay(wal);
      assertEquals(3, batches.size());
      assertEquals(3.0 * 100, batches.stream().mapToInt(PointBatch::size).sum());
      assertOwnSeries(batches, handles);
      assertEquals(2_000.0, batches.get(1).value(0));
    }
  }

  /** A segment defines its series itself: it replays alone once the ones before are deleted. */
  @Test
  void aNewSegmentDefinesItsSeriesAgain() throws IOException {
    SeriesHandle[] handles = handles("a", 10);
    try (WriteAheadLog wal = open(dir)) {
      replay(wal);
      wal.append(round(handles, 1));
      wal.roll();
      wal.append(round(handles, 2));
      assertEquals(1, wal.deleteBefore(wal.currentSegment()));
    }
    try (WriteAheadLog wal = open(dir)) {
      List<PointBatch> batches = replay(wal);
      assertEquals(1, batches.size());
      assertOwnSeries(batches, handles);
      assertEquals(0, wal.replayReport().damagedEntries());
    }
  }

  /** Two logs in one process (two servers) with the same handles: neither takes the other's numbers. */
  @Test
  void twoLogsSharingHandlesKeepTheirOwnNumbers() throws IOException {
    SeriesHandle[] handles = handles("a", 20);
    SeriesHandle[] reversed = new SeriesHandle[handles.length];
    for (int i = 0; i < handles.length; i++) {
      reversed[i] = handles[handles.length - 1 - i];
    }
    Path other = dir.resolve("other");
    try (WriteAheadLog first = open(dir.resolve("first")); WriteAheadLog second = open(other)) {
      replay(first);
      replay(second);
      first.append(round(handles, 1)); // numbers 0..19 in handle order
      second.append(round(reversed, 1)); // numbers 0..19 in the reverse order
      first.append(round(handles, 2));
      second.append(round(reversed, 2));
    }
    try (WriteAheadLog first = open(dir.resolve("first")); WriteAheadLog second = open(other)) {
      assertOwnSeries(replay(first), handles);
      assertOwnSeries(replay(second), reversed);
    }
  }

  /**
   * An entry whose defining entry is damaged cannot be read: it is counted as damaged with its
   * points, never read with another series' key, and the segments after read as before.
   */
  @Test
  void entriesNamingSeriesOfADamagedEntryAreReportedDamaged() throws IOException {
    SeriesHandle[] handles = handles("a", 10);
    try (WriteAheadLog wal = open(dir)) {
      replay(wal);
      wal.append(round(handles, 1));
      wal.append(round(handles, 2));
      wal.append(round(handles, 3));
      wal.roll();
      wal.append(round(handles, 4));
    }
    Path segment = dir.resolve(String.format("segment-%020d.wal", 1));
    byte[] bytes = Files.readAllBytes(segment);
    bytes[WalFormat.SEGMENT_HEADER + WalFormat.FRAME_HEADER + 8] ^= 0x40; // inside the first entry's keys
    Files.write(segment, bytes);
    try (WriteAheadLog wal = open(dir)) {
      List<PointBatch> batches = replay(wal);
      assertEquals(1, batches.size(), "only the next segment's entry is read");
      assertOwnSeries(batches, handles);
      assertEquals(4_000.0, batches.get(0).value(0));
      assertEquals(3, wal.replayReport().damagedEntries(), wal.replayReport().toString());
      assertEquals(30, wal.replayReport().skippedPoints());
    }
  }

  /**
   * Two writers and rolls at once (segments of 8 KB roll every few entries, and a third thread rolls
   * too): entries encoded for a segment the log left are encoded again for the new one.
   */
  @Test
  void concurrentWritersAndRollsKeepEveryPointWithItsSeries() throws Exception {
    SeriesHandle[] handles = handles("a", 50);
    AtomicBoolean done = new AtomicBoolean();
    Map<Integer, Boolean> written = new ConcurrentHashMap<>();
    try (WriteAheadLog wal = new WriteAheadLog(dir, 8 << 10, FsyncPolicy.NEVER, 1000)) {
      replay(wal);
      List<Thread> writers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        int offset = t;
        writers.add(new Thread(() -> {
          try {
            for (int r = 0; r < 300; r++) {
              int round = r * 2 + offset + 1;
              wal.append(round(handles, round));
              written.put(round, true);
            }
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }));
      }
      Thread roller = new Thread(() -> {
        while (!done.get()) {
          try {
            wal.roll();
            Thread.yield();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      });
      roller.start();
      writers.forEach(Thread::start);
      for (Thread writer : writers) {
        writer.join();
      }
      done.set(true);
      roller.join();
      assertTrue(wal.currentSegment() > 20, "the log rolled while the writers wrote: " + wal.currentSegment());
    }
    try (WriteAheadLog wal = open(dir)) {
      List<PointBatch> batches = replay(wal);
      assertEquals(600, batches.size());
      assertEquals(0, wal.replayReport().damagedEntries());
      assertOwnSeries(batches, handles);
      assertEquals(written.keySet(), batches.stream().map(b -> (int) b.value(0) / 1_000)
          .collect(java.util.stream.Collectors.toSet()));
    }
  }
}
