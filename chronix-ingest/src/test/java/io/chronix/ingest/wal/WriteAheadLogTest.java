package io.chronix.ingest.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {

  private static final SeriesKey CPU = SeriesKey.metric("cpu", Map.of("host", "a", "odd key", "v=1,2"));
  private static final SeriesKey MEM = SeriesKey.metric("mem \\ used", Map.of());

  @TempDir Path dir;

  private static PointBatch batch(int from, int count) {
    PointBatch batch = new PointBatch();
    for (int i = from; i < from + count; i++) {
      batch.accept(i % 2 == 0 ? CPU : MEM, 1_439_393_134_415_000_000L + i * 1_000_000_007L, i == 3 ? -0.0 : i * 1.5);
    }
    return batch;
  }

  private List<String> replayAll(WriteAheadLog wal) throws IOException {
    List<String> points = new ArrayList<>();
    wal.replay((batch, segment) -> {
      for (int i = 0; i < batch.size(); i++) {
        points.add(batch.key(i).name() + "@" + batch.timestamp(i) + "=" + Double.doubleToRawLongBits(batch.value(i)) + "/" + segment);
      }
    });
    return points;
  }

  private static List<String> expected(int from, int count, long segment) {
    List<String> points = new ArrayList<>();
    PointBatch batch = batch(from, count);
    for (int i = 0; i < batch.size(); i++) {
      points.add(batch.key(i).name() + "@" + batch.timestamp(i) + "=" + Double.doubleToRawLongBits(batch.value(i)) + "/" + segment);
    }
    return points;
  }

  @Test
  void appendedBatchesReplayBitExactInOrder() throws IOException {
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      assertEquals(List.of(), replayAll(wal));
      assertEquals(1, wal.append(batch(0, 5)));
      assertEquals(1, wal.append(batch(5, 3)));
    }
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      List<String> all = new ArrayList<>(expected(0, 5, 1));
      all.addAll(expected(5, 3, 1));
      assertEquals(all, replayAll(wal));
      assertEquals(2, wal.currentSegment(), "a restart appends to a fresh segment");
    }
  }

  @Test
  void aTornTailIsCutAndEarlierEntriesSurvive() throws IOException {
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      replayAll(wal);
      wal.append(batch(0, 4));
      wal.append(batch(4, 4));
    }
    Path segment = dir.resolve(String.format("segment-%020d.wal", 1));
    long size = Files.size(segment);
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      channel.truncate(size - 5); // the process died while writing the second entry
    }
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      assertEquals(expected(0, 4, 1), replayAll(wal));
    }
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      assertEquals(expected(0, 4, 1), replayAll(wal), "the cut is permanent and harmless");
    }
  }

  @Test
  void flippedBitsInTheLastEntryAreATornTail() throws IOException {
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.NEVER, 1000)) {
      replayAll(wal);
      wal.append(batch(0, 4));
      wal.append(batch(4, 4));
    }
    Path segment = dir.resolve(String.format("segment-%020d.wal", 1));
    byte[] bytes = Files.readAllBytes(segment);
    bytes[bytes.length - 3] ^= 0x40;
    Files.write(segment, bytes);
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      assertEquals(expected(0, 4, 1), replayAll(wal));
    }
  }

  @Test
  void segmentsRollAndOnlyOlderOnesAreDeleted() throws IOException {
    try (WriteAheadLog wal = new WriteAheadLog(dir, 4096, FsyncPolicy.ALWAYS, 1000)) {
      replayAll(wal);
      for (int i = 0; i < 100; i++) {
        wal.append(batch(i * 10, 10));
      }
      List<Long> segments = wal.segments();
      assertTrue(segments.size() > 3, "rolled: " + segments);
      long current = wal.currentSegment();
      wal.deleteBefore(current);
      assertEquals(List.of(current), wal.segments());
      wal.roll();
      assertEquals(current + 1, wal.currentSegment());
      wal.roll(); // nothing appended since: no new segment
      assertEquals(current + 1, wal.currentSegment());
    }
  }

  @Test
  void concurrentWritersAllSurvive() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 16, FsyncPolicy.ALWAYS, 1000)) {
      replayAll(wal);
      List<Future<Long>> results = new ArrayList<>();
      for (int t = 0; t < 200; t++) {
        int from = t * 7;
        results.add(pool.submit(() -> wal.append(batch(from, 7))));
      }
      for (Future<Long> result : results) {
        result.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 16, FsyncPolicy.ALWAYS, 1000)) {
      List<String> replayed = replayAll(wal);
      assertEquals(1400, replayed.size());
      assertEquals(1400, replayed.stream().map(p -> p.substring(0, p.lastIndexOf('/'))).distinct().count());
    }
  }

  @Test
  void badPolicyNamesTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FsyncPolicy.parse("sometimes"));
    assertTrue(e.getMessage().contains("wal.fsync"), e.getMessage());
  }

  @Test
  void typedPointsReplayAsTheyCame() throws IOException {
    PointBatch batch = new PointBatch();
    SeriesKey state = new SeriesKey("svc_state", "string", Map.of("host", "a"));
    SeriesKey restarts = new SeriesKey("svc_restarts", "long", Map.of("host", "a"));
    SeriesKey up = new SeriesKey("svc_up", "boolean", Map.of("host", "a"));
    batch.acceptText(state, 1, "running, \"ok\" 世界");
    batch.acceptLong(restarts, 1, Long.MAX_VALUE);
    batch.acceptBoolean(up, 1, true);
    batch.accept(CPU, 2, 0.5);
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      replayAll(wal);
      wal.append(batch);
    }
    try (WriteAheadLog wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 1000)) {
      List<PointBatch> replayed = new ArrayList<>();
      wal.replay((b, segment) -> replayed.add(b));
      PointBatch back = replayed.get(0);
      assertEquals("running, \"ok\" 世界", back.text(0));
      assertEquals(Long.MAX_VALUE, back.longValue(1));
      assertEquals(1.0, back.value(2));
      assertEquals(0.5, back.value(3));
      assertEquals(up, back.key(2));
    }
  }
}
