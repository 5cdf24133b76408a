package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SeriesBuffersTest {

  private static final SeriesKey CPU = SeriesKey.metric("cpu", Map.of("host", "a"));
  private static final SeriesKey MEM = SeriesKey.metric("mem", Map.of("host", "a"));

  private final List<String> written = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong();
  private final AtomicBoolean failing = new AtomicBoolean();

  private SeriesBuffers buffers(int maxPoints, long maxBytes, Duration maxAge) {
    return new SeriesBuffers(maxPoints, maxBytes, maxAge, this::sink, clock::get, Runnable::run);
  }

  private void sink(SeriesKey key, Points points) throws IOException {
    if (failing.get()) {
      throw new IOException("store down");
    }
    written.add(key.name() + ":" + points.size());
  }

  @Test
  void fullBuffersAreWrittenAtOnce() throws IOException {
    SeriesBuffers buffers = buffers(3, Long.MAX_VALUE, Duration.ofHours(1));
    for (int i = 0; i < 7; i++) {
      buffers.add(CPU, i, i);
    }
    buffers.add(MEM, 0, 0);
    assertEquals(List.of("cpu:3", "cpu:3"), written);
    assertEquals(2, buffers.bufferedPoints());
    buffers.flushAll();
    assertEquals(List.of("cpu:1", "cpu:3", "cpu:3", "mem:1"), written.stream().sorted().toList());
    assertEquals(0, buffers.bufferedPoints());
  }

  @Test
  void byteLimitCutsToo() throws IOException {
    SeriesBuffers buffers = buffers(1000, 4 * SeriesBuffer.BYTES_PER_POINT, Duration.ofHours(1));
    for (int i = 0; i < 4; i++) {
      buffers.add(CPU, i, i);
    }
    assertEquals(List.of("cpu:4"), written);
  }

  @Test
  void oldBuffersAreWrittenByAge() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofSeconds(10));
    buffers.add(CPU, 1, 1);
    clock.set(Duration.ofSeconds(5).toNanos());
    buffers.add(MEM, 1, 1);
    buffers.flushOld();
    assertEquals(List.of(), written);
    clock.set(Duration.ofSeconds(11).toNanos());
    buffers.flushOld();
    assertEquals(List.of("cpu:1"), written);
    clock.set(Duration.ofSeconds(16).toNanos());
    buffers.flushOld();
    assertEquals(List.of("cpu:1", "mem:1"), written);
  }

  @Test
  void failedWritesKeepThePointsBuffered() throws IOException {
    SeriesBuffers buffers = buffers(2, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.add(CPU, 1, 1);
    failing.set(true);
    buffers.add(CPU, 2, 2); // full: the write fails on the writer, the points go back
    assertEquals(2, buffers.bufferedPoints());
    assertThrows(IOException.class, buffers::flushAll);
    failing.set(false);
    buffers.flushAll();
    assertEquals(List.of("cpu:2"), written);
    assertEquals(0, buffers.bufferedPoints());
  }

  @Test
  void oldestUnflushedSegmentFollowsBuffersAndWrites() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    assertEquals(Long.MAX_VALUE, buffers.oldestUnflushedSegment());
    buffers.add(CPU, 1, 1, 7);
    buffers.add(MEM, 1, 1, 5);
    buffers.add(CPU, 2, 2, 9);
    assertEquals(5, buffers.oldestUnflushedSegment());
    failing.set(true);
    assertThrows(IOException.class, buffers::flushAll);
    assertEquals(5, buffers.oldestUnflushedSegment(), "failed writes keep their segments needed");
    failing.set(false);
    buffers.flushAll();
    assertEquals(Long.MAX_VALUE, buffers.oldestUnflushedSegment());
  }

  @Test
  void pausedCuttingKeepsEverythingUntilFiltered() throws IOException {
    SeriesBuffers buffers = buffers(2, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.pauseCutting();
    for (int i = 0; i < 5; i++) {
      buffers.add(CPU, i, i);
    }
    assertEquals(List.of(), written);
    buffers.filter(CPU, points -> points.slice(2, points.size()));
    assertEquals(3, buffers.bufferedPoints());
    buffers.resumeCutting();
    buffers.flushAll();
    assertEquals(List.of("cpu:3"), written);
  }

  @Test
  void flushAllWaitsForFullBuffersOnTheirWay() throws Exception {
    java.util.concurrent.ExecutorService slowWriter = java.util.concurrent.Executors.newSingleThreadExecutor();
    List<String> slowWritten = java.util.Collections.synchronizedList(new ArrayList<>());
    SeriesBuffers buffers = new SeriesBuffers(3, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> {
      try {
        Thread.sleep(300);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      slowWritten.add(key.name() + ":" + points.size());
    }, clock::get, slowWriter);
    try {
      for (int i = 0; i < 4; i++) {
        buffers.add(CPU, i, i);
      }
      buffers.flushAll();
      assertEquals(List.of("cpu:3", "cpu:1"), slowWritten, "the full chunk first, then the rest");
      assertEquals(0, buffers.bufferedPoints());
    } finally {
      slowWriter.shutdownNow();
    }
  }
}
