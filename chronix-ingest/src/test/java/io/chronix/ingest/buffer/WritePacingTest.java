package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.wal.SegmentLedger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Full chunks wait for a pause in the ingest (no batch for {@link WritePacing#QUIET_NANOS}), at
 * most the delay, and not at all while a flush runs or the buffers are past the pressure level.
 * The buffers' clock is the test's: a chunk that may not go yet stays unwritten however long the
 * test sleeps, so the waits below cannot pass by chance.
 */
@Timeout(60)
class WritePacingTest {

  private static final SeriesKey CPU = SeriesKey.metric("cpu", Map.of("host", "a"));
  private static final SeriesKey MEM = SeriesKey.metric("mem", Map.of("host", "a"));
  private static final long MS = 1_000_000L;

  private final AtomicLong clock = new AtomicLong(1_000 * MS);
  private final List<String> written = Collections.synchronizedList(new ArrayList<>());
  private final ExecutorService writer = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopWriter() {
    writer.shutdownNow();
  }

  private SeriesBuffers buffers(Duration maxDelay, long pressureBytes) {
    SeriesBuffers buffers = new SeriesBuffers(3, Long.MAX_VALUE, Duration.ofHours(1), this::sink, clock::get,
        writer, new SegmentLedger());
    buffers.paceWrites(maxDelay, pressureBytes);
    return buffers;
  }

  private Points sink(SeriesKey key, Points points) {
    written.add(key.name() + ":" + points.size());
    return points;
  }

  /** A batch of {@code points} points of the series at the clock's time now. */
  private static void batch(SeriesBuffers buffers, SeriesKey key, int points, long first) {
    PointBatch batch = new PointBatch();
    for (int i = 0; i < points; i++) {
      batch.accept(key, first + i, i);
    }
    buffers.addAll(batch, SeriesBuffer.NO_SEGMENT, buffers.resolve(batch));
  }

  private void awaitWritten(int chunks) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (written.size() < chunks && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertEquals(chunks, written.size(), "chunks written: " + written);
  }

  @Test
  void aFullChunkWaitsWhileBatchesComeAndGoesInThePause() throws Exception {
    SeriesBuffers buffers = buffers(Duration.ofSeconds(10), Long.MAX_VALUE);
    batch(buffers, CPU, 3, 0); // full: handed to the writer, which waits
    Thread.sleep(100);
    assertEquals(List.of(), written, "batches came just now");
    clock.addAndGet(15 * MS);
    batch(buffers, MEM, 1, 0); // another batch within the quiet time
    clock.addAndGet(15 * MS); // 30 ms after the first batch, 15 after the last
    Thread.sleep(100);
    assertEquals(List.of(), written, "the last batch came 15 ms ago");
    clock.addAndGet(5 * MS);
    awaitWritten(1);
    assertEquals(List.of("cpu:3"), written);
    assertEquals(1, buffers.bufferedPoints(), "mem's point stays buffered");
  }

  @Test
  void aFullChunkWaitsNoLongerThanTheDelay() throws Exception {
    SeriesBuffers buffers = buffers(Duration.ofMillis(100), Long.MAX_VALUE);
    batch(buffers, CPU, 3, 0);
    for (int i = 1; i <= 9; i++) { // a batch every 10 ms for 90 ms: never a pause
      clock.addAndGet(10 * MS);
      batch(buffers, MEM, 1, i);
    }
    Thread.sleep(100);
    assertEquals(List.of(), written, "90 ms of the 100 waited");
    clock.addAndGet(10 * MS);
    batch(buffers, MEM, 1, 10);
    awaitWritten(1);
  }

  @Test
  void aFlushWritesWaitingChunksAtOnce() throws Exception {
    SeriesBuffers buffers = buffers(Duration.ofSeconds(10), Long.MAX_VALUE);
    batch(buffers, CPU, 3, 0);
    batch(buffers, MEM, 2, 0);
    Thread.sleep(50);
    assertEquals(List.of(), written);
    buffers.flushAll(); // returns once the waiting chunk is written, with the clock standing still
    assertEquals(List.of("cpu:3", "mem:2"), written);
    assertEquals(0, buffers.bufferedPoints());
  }

  @Test
  void chunksGoAtOnceUnderMemoryPressureOrWithoutPacing() throws Exception {
    SeriesBuffers pressed = buffers(Duration.ofSeconds(10), 0);
    batch(pressed, CPU, 3, 0);
    awaitWritten(1);
    SeriesBuffers unpaced = buffers(Duration.ZERO, Long.MAX_VALUE);
    batch(unpaced, MEM, 3, 0);
    awaitWritten(2);
  }

  @Test
  void aNegativeDelayIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new WritePacing(-1, 0, System::nanoTime));
  }
}
