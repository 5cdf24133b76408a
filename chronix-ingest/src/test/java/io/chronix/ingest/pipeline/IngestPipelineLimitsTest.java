package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.BufferMemory;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.wal.FsyncPolicy;
import io.chronix.ingest.wal.SegmentLedger;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two limits a write meets before anything is logged: active series and buffer memory. */
class IngestPipelineLimitsTest {

  @TempDir Path dir;
  private WriteAheadLog wal;
  private final SegmentLedger ledger = new SegmentLedger();
  private final AtomicInteger relieved = new AtomicInteger();
  private SeriesBuffers buffers;

  @BeforeEach
  void open() throws IOException {
    wal = new WriteAheadLog(dir, 1 << 20, FsyncPolicy.NEVER, 1000);
    wal.replay((batch, segment) -> {}); // opens the first segment
    buffers = new SeriesBuffers(10_000, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> points, Runnable::run,
        ledger);
  }

  @AfterEach
  void close() throws IOException {
    wal.close();
  }

  private IngestPipeline pipeline(long maxBytes, int maxSeries) {
    return new IngestPipeline(wal, ledger, buffers, () -> {}, maxBytes, maxSeries, relieved::incrementAndGet);
  }

  private static PointBatch hosts(int from, int to) {
    PointBatch batch = new PointBatch();
    for (int host = from; host < to; host++) {
      batch.accept(SeriesKey.metric("cpu", Map.of("host", "h" + host)), 1, host);
    }
    return batch;
  }

  /** The points in the log, as a restart would read them (the pipelines keep writing to the old instance). */
  private long logged() throws IOException {
    try (WriteAheadLog reopened = new WriteAheadLog(dir.resolve("../" + dir.getFileName()).normalize(), 1 << 20,
        FsyncPolicy.NEVER, 1000)) {
      long[] points = {0};
      reopened.replay((batch, segment) -> points[0] += batch.size());
      return points[0];
    }
  }

  @Test
  void aBatchWithMoreNewSeriesThanAllowedIsRefusedWhole() throws IOException {
    IngestPipeline pipeline = pipeline(Long.MAX_VALUE, 3);
    pipeline.write(hosts(0, 2));
    TooManySeriesException refused = assertThrows(TooManySeriesException.class, () -> pipeline.write(hosts(1, 4)));
    assertTrue(refused.getMessage().contains("buffer.maxSeries allows 3"), refused.getMessage());
    assertTrue(refused.getMessage().contains("2 are active and the request brings 2 new ones"), refused.getMessage());
    assertEquals(2, buffers.activeSeries());
    assertEquals(2, buffers.bufferedPoints());
    assertEquals(2, logged(), "nothing of the refused batch is in the log");
    pipeline.write(hosts(0, 3)); // known series and one new one fit
    assertEquals(3, buffers.activeSeries());
  }

  @Test
  void aBatchOverTheMemoryBudgetIsRefusedWholeAndAsksForAFlush() throws IOException {
    PointBatch first = hosts(0, 5);
    long oneSeries = BufferMemory.series(first.key(0)) + BufferMemory.NUMERIC_POINT;
    IngestPipeline pipeline = pipeline(7 * oneSeries, Integer.MAX_VALUE);
    pipeline.write(first);
    OverloadedException refused = assertThrows(OverloadedException.class, () -> pipeline.write(hosts(5, 8)));
    assertInstanceOf(OverloadedException.class, refused);
    assertTrue(refused.getMessage().contains("buffer.maxBytes"), refused.getMessage());
    assertEquals(1, relieved.get());
    assertEquals(5, buffers.bufferedPoints());
    assertEquals(5, logged());
    buffers.flushAll();
    pipeline.write(hosts(5, 7)); // written points left the budget: two more series fit
    assertEquals(7, buffers.activeSeries());
  }

  /**
   * The budget check counts numeric points at a fixed cost and a string point by its characters:
   * a batch mixing both needs exactly what the buffers will hold for it.
   */
  @Test
  void aBatchWithStringsNeedsWhatItsStringsCost() throws IOException {
    SeriesKey cpu = SeriesKey.metric("cpu", Map.of("host", "a"));
    SeriesKey state = new SeriesKey("state", "string", Map.of("host", "a"));
    String text = "x".repeat(2_000);
    PointBatch batch = new PointBatch();
    batch.accept(cpu, 1, 1);
    batch.acceptText(state, 1, text);
    long needs = BufferMemory.series(cpu) + BufferMemory.series(state) + BufferMemory.NUMERIC_POINT
        + BufferMemory.textPoint(text);
    OverloadedException refused = assertThrows(OverloadedException.class, () -> pipeline(needs - 1, 10).write(batch));
    assertTrue(refused.getMessage().contains("the request needs " + needs), refused.getMessage());
    pipeline(needs, 10).write(batch);
    long packed = buffers.memoryBytes() - (needs - BufferMemory.NUMERIC_POINT);
    assertTrue(packed > 0 && packed <= BufferMemory.NUMERIC_POINT,
        "the buffers hold what the check counted, the numeric point as packed: " + packed);
  }
}
