package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.PackedPoints;
import io.chronix.core.live.LiveSeries;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.wal.SegmentLedger;
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
  private final SegmentLedger ledger = new SegmentLedger();

  private SeriesBuffers buffers(int maxPoints, long maxBytes, Duration maxAge) {
    return new SeriesBuffers(maxPoints, maxBytes, maxAge, this::sink, clock::get, Runnable::run, ledger);
  }

  /** What the given series hold as their buffers count it: keys, kept arrays, points and copies. */
  private static long held(SeriesBuffers buffers, SeriesKey... keys) {
    long bytes = 0;
    for (SeriesKey key : keys) {
      SeriesBuffer buffer = buffers.bufferOf(key);
      bytes += BufferMemory.series(key) + buffer.keptBytes() + buffer.retainedBytes();
    }
    return bytes;
  }

  private Points sink(SeriesKey key, Points points) throws IOException {
    if (failing.get()) {
      throw new IOException("store down");
    }
    written.add(key.name() + ":" + points.size());
    return points;
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
  void aBatchAddsEachSeriesPointsInTheirOrderAndCountsThemAsPointByPoint() throws IOException {
    PointBatch batch = new PointBatch();
    for (int i = 0; i < 7; i++) { // interleaved, as lines with one field per series
      batch.accept(CPU, i, i);
      batch.accept(MEM, 100 + i, -i);
    }
    SeriesBuffers byBatch = buffers(3, Long.MAX_VALUE, Duration.ofHours(1));
    byBatch.addAll(batch, SeriesBuffer.NO_SEGMENT);
    // series by lock stripe, each series' chunks in their order
    assertEquals(List.of("cpu:3", "cpu:3", "mem:3", "mem:3"), written.stream().sorted().toList());
    assertEquals(2, byBatch.bufferedPoints());
    Map<SeriesKey, Points> left = snapshotOf(byBatch);
    assertEquals(6L, left.get(CPU).timestamp(0));
    assertEquals(106L, left.get(MEM).timestamp(0));
    assertEquals(-6.0, left.get(MEM).value(0));

    SeriesBuffers byPoint = buffers(3, Long.MAX_VALUE, Duration.ofHours(1));
    for (int i = 0; i < batch.size(); i++) {
      byPoint.add(batch.key(i), batch.timestamp(i), batch.value(i));
    }
    assertEquals(byPoint.memoryBytes(), byBatch.memoryBytes());
    assertEquals(byPoint.bufferedPoints(), byBatch.bufferedPoints());
    byBatch.flushAll();
    assertEquals(0, byBatch.bufferedPoints());
    assertEquals(held(byBatch, CPU, MEM), byBatch.memoryBytes(), "only the two series' buffers are left");
    assertEquals(byBatch.seriesBytes(), byBatch.memoryBytes(), "keys and the arrays their buffers kept");
  }

  /**
   * Request threads add batches of the same series while chunks are cut, flushed and copied for
   * queries: every point is written once, none lost or doubled (the buffers' locks are stripes
   * that a batch takes once for all its series there).
   */
  @Test
  void concurrentBatchesFlushesAndSnapshotsLoseNoPoint() throws Exception {
    Map<SeriesKey, List<Long>> stored = new java.util.concurrent.ConcurrentHashMap<>();
    SeriesBuffers buffers = new SeriesBuffers(7, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> {
      List<Long> timestamps = stored.computeIfAbsent(key, k -> java.util.Collections.synchronizedList(new ArrayList<>()));
      for (int i = 0; i < points.size(); i++) {
        timestamps.add(points.timestamp(i));
      }
      return points;
    }, clock::get, Runnable::run, ledger);
    buffers.trackOutgoing(Duration.ZERO);
    int threads = 3;
    int batches = 150;
    int series = 400;
    List<SeriesKey> keys = new ArrayList<>();
    for (int s = 0; s < series; s++) {
      keys.add(SeriesKey.metric("m" + s % 7, Map.of("host", "h" + s)));
    }
    AtomicBoolean adding = new AtomicBoolean(true);
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread flusher = new Thread(() -> {
      try {
        while (adding.get()) {
          buffers.flushOldest(0);
          buffers.snapshot();
          buffers.flushAll();
        }
      } catch (Throwable e) {
        failures.add(e);
      }
    });
    List<Thread> appenders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      appenders.add(new Thread(() -> {
        try {
          for (int b = 0; b < batches; b++) {
            PointBatch batch = new PointBatch();
            for (SeriesKey key : keys) {
              batch.accept(key, (long) b * threads + thread, b);
            }
            buffers.addAll(batch, SeriesBuffer.NO_SEGMENT, buffers.resolve(batch)); // staged, as requests are
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    flusher.start();
    appenders.forEach(Thread::start);
    for (Thread appender : appenders) {
      appender.join();
    }
    adding.set(false);
    flusher.join();
    buffers.flushAll();
    assertEquals(List.of(), failures);
    assertEquals(0, buffers.bufferedPoints());
    List<Long> expected = new ArrayList<>();
    for (long ts = 0; ts < (long) batches * threads; ts++) {
      expected.add(ts);
    }
    for (SeriesKey key : keys) {
      List<Long> timestamps = new ArrayList<>(stored.get(key));
      timestamps.sort(null);
      assertEquals(expected, timestamps, key.toString());
    }
  }

  /**
   * A listing reads where each series' not yet searchable points begin and end without a copy of
   * them: those of the chunks on their way to the store and of the buffer, as a snapshot has them;
   * of all series, of a name's, and of those with some values of an attribute.
   */
  @Test
  void spansAreThoseOfTheSnapshots() throws IOException {
    SeriesBuffers buffers = buffers(5, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.trackOutgoing(Duration.ofHours(1)); // chunks taken out stay unsearchable
    java.util.Random random = new java.util.Random(5);
    for (int i = 0; i < 400; i++) {
      SeriesKey key = SeriesKey.metric("m" + random.nextInt(3), Map.of("host", "h" + random.nextInt(20)));
      buffers.add(key, random.nextInt(1_000_000), i);
      if (random.nextInt(50) == 0) {
        buffers.flushOldest(0);
      }
    }
    for (String name : new String[] {null, "m1"}) {
      Map<SeriesKey, String> expected = new java.util.HashMap<>();
      for (io.chronix.core.live.LiveSeries.Buffered series : name == null ? buffers.snapshot(k -> true)
          : buffers.snapshot(name, k -> true)) {
        Points points = series.points();
        points.sortAndDeduplicate();
        expected.put(series.key(), points.timestamp(0) + ".." + points.timestamp(points.size() - 1));
      }
      Map<SeriesKey, String> spans = new java.util.HashMap<>();
      buffers.spans(name, k -> true,
          span -> assertNull(spans.put(span.key(), span.firstNanos() + ".." + span.lastNanos()), "one span a series"));
      assertTrue(expected.size() > 15, "series with unsearchable points: " + expected.size());
      assertEquals(expected, spans, "name " + name);

      // those of two hosts, from the index by host
      expected.keySet().removeIf(key -> !java.util.Set.of("h3", "h7").contains(key.attributes().get("host")));
      spans.clear();
      buffers.spans(name, "host", java.util.Set.of("h3", "h7"), k -> true, k -> true,
          span -> assertNull(spans.put(span.key(), span.firstNanos() + ".." + span.lastNanos()), "one span a series"));
      assertFalse(expected.isEmpty());
      assertEquals(expected, spans, "name " + name + ", hosts h3 and h7");
    }
  }

  /**
   * Short runs of series that have a buffer are staged: a query sees them at once, they count as
   * buffered, their log segment stays pinned, and a later long run of the same series (added
   * directly) comes after them.
   */
  @Test
  void stagedPointsAreSeenCountedPinnedAndKeepTheirOrder() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.add(CPU, 1, 1); // a buffer, pinning nothing
    assertEquals(SegmentLedger.NONE, ledger.oldestPinned());
    long one = buffers.memoryBytes();
    PointBatch single = new PointBatch();
    single.accept(CPU, 3, 30);
    buffers.addAll(single, 6, buffers.resolve(single));
    assertEquals(2, buffers.bufferedPoints());
    assertEquals(one + BufferMemory.NUMERIC_POINT, buffers.memoryBytes(), "staged: a point's share until packed");
    assertEquals(6, ledger.oldestPinned(), "the staged point's segment");
    PointBatch again = new PointBatch();
    again.accept(CPU, 2, 20);
    buffers.addAll(again, 7, buffers.resolve(again));
    PointBatch run = new PointBatch();
    for (int i = 0; i < 6; i++) {
      run.accept(CPU, 10 + i, 100 + i);
    }
    buffers.addAll(run, 7, buffers.resolve(run));
    Points seen = buffers.snapshot(CPU);
    List<Long> order = new ArrayList<>();
    for (int i = 0; i < seen.size(); i++) {
      order.add(seen.timestamp(i));
    }
    assertEquals(List.of(1L, 3L, 2L, 10L, 11L, 12L, 13L, 14L, 15L), order, "arrival order");
    assertEquals(30.0, seen.value(1));
    assertEquals(9, buffers.bufferedPoints());
    assertEquals(held(buffers, CPU), buffers.memoryBytes(), "settled: as the packed array holds them");
    assertTrue(buffers.memoryBytes() < BufferMemory.series(CPU) + 9 * BufferMemory.NUMERIC_POINT);
    assertEquals(6, ledger.oldestPinned(), "now the buffer's pin");
    buffers.flushAll();
    buffers.commit(() -> {});
    assertEquals(SegmentLedger.NONE, ledger.oldestPinned());
    assertEquals(List.of("cpu:9"), written);
  }

  /**
   * A listing asks the buffers whether their series hold a value it lacks: a point still staged
   * counts, as a query sees it. Here the series' buffer was written out and let go of its key, and
   * the point waits staged when the listing asks.
   */
  @Test
  void aStagedPointsValuesAreOffered() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.add(CPU, 1, 1);
    buffers.flushAll();
    buffers.commit(() -> {});
    clock.addAndGet(UnsearchableSeries.KEEP_QUIET_NANOS);
    buffers.spans(null, key -> true, span -> {}); // a query's visit lets go of searchable, quiet series
    assertTrue(buffers.everyValue(RecordFields.NAME, name -> false), "nothing unsearchable");
    PointBatch single = new PointBatch();
    single.accept(CPU, 3, 30);
    buffers.addAll(single, 6, buffers.resolve(single));
    java.util.Set<String> names = new java.util.HashSet<>();
    assertTrue(buffers.everyValue(RecordFields.NAME, names::add));
    assertEquals(java.util.Set.of("cpu"), names);
    assertFalse(buffers.everyValue("host", host -> !host.equals("a")), "its host");
  }

  /**
   * The buffers tell whether any series may have not yet searchable points: none at first; a point
   * added directly or still staged; once written, quiet for a while and visited, none again.
   */
  @Test
  void theBuffersTellWhetherAnySeriesHasUnsearchablePoints() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    assertFalse(buffers.hasUnsearchable(), "nothing written");
    buffers.add(CPU, 1, 1);
    assertTrue(buffers.hasUnsearchable(), "a point added");
    buffers.flushAll();
    buffers.commit(() -> {});
    clock.addAndGet(UnsearchableSeries.KEEP_QUIET_NANOS);
    buffers.spans(null, key -> true, span -> {}); // a query's visit lets go of searchable, quiet series
    assertFalse(buffers.hasUnsearchable(), "written, quiet and visited");
    PointBatch single = new PointBatch();
    single.accept(CPU, 3, 30);
    buffers.addAll(single, 6, buffers.resolve(single));
    assertTrue(buffers.hasUnsearchable(), "a point staged");
  }

  /**
   * A series whose chunk searches see stays among those a query visits until it has been quiet for
   * {@link UnsearchableSeries#KEEP_QUIET_NANOS}, and only that long: a fleet's series, let go after
   * each write and taken in again with their next point, filled long-lived maps with new entries.
   * Its visits find nothing of it, and a buffer let go leaves at once.
   */
  @Test
  void aWrittenSeriesStaysVisitedWhileItSendsAndLeavesOnceQuiet() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.add(CPU, 1, 1);
    buffers.flushAll();
    buffers.commit(() -> {});
    clock.addAndGet(UnsearchableSeries.KEEP_QUIET_NANOS - 1);
    List<SeriesKey> spanned = new ArrayList<>();
    buffers.spans(null, key -> true, span -> spanned.add(span.key()));
    assertEquals(List.of(), spanned, "nothing of it to show");
    assertTrue(buffers.hasUnsearchable(), "still visited, a minute not passed");
    assertFalse(buffers.everyValue(RecordFields.NAME, name -> false), "its name still counted");
    clock.addAndGet(1);
    buffers.spans(null, key -> true, span -> spanned.add(span.key()));
    assertFalse(buffers.hasUnsearchable(), "quiet for the minute");

    buffers.add(MEM, 2, 2);
    buffers.flushAll();
    buffers.commit(() -> {});
    buffers.releaseEmpty();
    assertFalse(buffers.hasUnsearchable(), "its buffer let go: out at once");
    assertEquals(0, buffers.activeSeries());
  }

  /** A batch whose series come one after the other (a file, an exporter) is added run by run, in order. */
  @Test
  void aBatchOfSeriesOneAfterTheOtherKeepsEachSeriesInOrder() throws IOException {
    PointBatch batch = new PointBatch();
    for (int i = 0; i < 5; i++) {
      batch.accept(CPU, 10 - i, i); // out of order within the series: kept as it came
    }
    batch.accept(MEM, 1, 1);
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.addAll(batch, SeriesBuffer.NO_SEGMENT, buffers.resolve(batch));
    Points cpu = buffers.snapshot(CPU);
    for (int i = 0; i < 5; i++) {
      assertEquals(10L - i, cpu.timestamp(i));
      assertEquals(i, cpu.value(i));
    }
    assertEquals(1, buffers.snapshot(MEM).size());
    assertEquals(6, buffers.bufferedPoints());
  }

  /** A batch's run cut by bytes as point-by-point adds cut it, doubles and longs alike. */
  @Test
  void aBatchRunIsCutByBytesWhereSinglePointsWouldBe() throws IOException {
    SeriesKey count = new SeriesKey("count", "long", Map.of("host", "a"));
    PointBatch batch = new PointBatch();
    for (int i = 0; i < 7; i++) {
      batch.accept(CPU, i, i);
      batch.acceptLong(count, i, 1000L + i);
    }
    // six packed bytes: full after the third point of each (two or three bytes the first, two each after)
    SeriesBuffers byBatch = buffers(1000, 6, Duration.ofHours(1));
    byBatch.addAll(batch, SeriesBuffer.NO_SEGMENT);
    assertEquals(List.of("count:3", "count:3", "cpu:3", "cpu:3"), written.stream().sorted().toList());
    SeriesBuffers byPoint = buffers(1000, 6, Duration.ofHours(1));
    for (int i = 0; i < batch.size(); i++) {
      if (batch.key(i).equals(count)) {
        byPoint.addLong(count, batch.timestamp(i), batch.longValue(i), SeriesBuffer.NO_SEGMENT);
      } else {
        byPoint.add(CPU, batch.timestamp(i), batch.value(i));
      }
    }
    assertEquals(byPoint.memoryBytes(), byBatch.memoryBytes());
    assertEquals(2, byBatch.bufferedPoints());
    assertEquals(1006L, snapshotOf(byBatch).get(count).longValue(0));
  }

  @Test
  void aSnapshotByNameVisitsThatNamesSeriesOnlyAndFollowsFlushes() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    SeriesKey cpuB = SeriesKey.metric("cpu", Map.of("host", "b"));
    buffers.add(CPU, 1, 1);
    buffers.add(cpuB, 2, 2);
    buffers.add(MEM, 3, 3);
    List<SeriesKey> visited = new ArrayList<>();
    List<LiveSeries.Buffered> cpu = buffers.snapshot("cpu", key -> visited.add(key));
    assertEquals(java.util.Set.of(CPU, cpuB), java.util.Set.copyOf(visited), "mem is not even looked at");
    assertEquals(java.util.Set.of(CPU, cpuB), cpu.stream().map(LiveSeries.Buffered::key).collect(
        java.util.stream.Collectors.toSet()));
    assertEquals(List.of(new LiveSeries.Buffered(cpuB, points(2, 2))), buffers.snapshot("cpu", cpuB::equals));
    assertEquals(List.of(), buffers.snapshot("disk", key -> true));

    buffers.flushAll();
    assertEquals(List.of(), buffers.snapshot("cpu", key -> true), "written: nothing left to see");
    buffers.add(cpuB, 4, 4);
    assertEquals(List.of(new LiveSeries.Buffered(cpuB, points(4, 4))), buffers.snapshot("cpu", key -> true));
    assertEquals(1, buffers.snapshot().size());
  }

  /** A snapshot of the series with an attribute's value visits those only, as the series come and go. */
  @Test
  void aSnapshotByAttributeValueVisitsTheSeriesWithItOnly() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    SeriesKey cpuB = SeriesKey.metric("cpu", Map.of("host", "b"));
    SeriesKey cpuBeu = SeriesKey.metric("cpu", Map.of("host", "b", "dc", "eu"));
    buffers.add(CPU, 1, 1);
    buffers.add(cpuB, 2, 2);
    buffers.add(cpuBeu, 3, 3);
    buffers.add(MEM, 4, 4);
    List<SeriesKey> visited = new ArrayList<>();
    List<LiveSeries.Buffered> hostB = buffers.snapshot("cpu", "host", "b", key -> visited.add(key));
    assertEquals(java.util.Set.of(cpuB, cpuBeu), java.util.Set.copyOf(visited), "host a is not even looked at");
    assertEquals(java.util.Set.of(new LiveSeries.Buffered(cpuB, points(2, 2)), new LiveSeries.Buffered(cpuBeu, points(3, 3))),
        java.util.Set.copyOf(hostB));
    assertEquals(List.of(new LiveSeries.Buffered(cpuBeu, points(3, 3))), buffers.snapshot("cpu", "dc", "eu", key -> true));
    assertEquals(List.of(), buffers.snapshot("cpu", "host", "c", key -> true));

    buffers.flushAll();
    assertEquals(List.of(), buffers.snapshot("cpu", "host", "b", key -> true), "written: nothing left to see");
    buffers.add(cpuB, 5, 5);
    assertEquals(List.of(new LiveSeries.Buffered(cpuB, points(5, 5))), buffers.snapshot("cpu", "host", "b", key -> true),
        "a series back after its write is in the index again");
  }

  @Test
  void byteLimitCutsToo() throws IOException {
    SeriesBuffers buffers = buffers(1000, 8, Duration.ofHours(1)); // four points packed, two bytes each
    for (int i = 0; i < 4; i++) {
      buffers.add(CPU, i, i);
    }
    assertEquals(List.of("cpu:4"), written);
  }

  @Test
  void oldBuffersAreWrittenAtTheirSeriesAge() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofSeconds(10));
    long cpuAge = buffers.maxAgeOf(CPU);
    long memAge = buffers.maxAgeOf(MEM);
    assertTrue(cpuAge < memAge, cpuAge + " " + memAge); // the keys' shares, fixed by their hashes
    buffers.add(CPU, 1, 1);
    buffers.add(MEM, 1, 1);
    clock.set(cpuAge - 1);
    buffers.flushOld();
    assertEquals(List.of(), written);
    clock.set(cpuAge);
    buffers.flushOld();
    assertEquals(List.of("cpu:1"), written);
    clock.set(memAge - 1);
    buffers.flushOld();
    assertEquals(List.of("cpu:1"), written);
    clock.set(memAge);
    buffers.flushOld();
    assertEquals(List.of("cpu:1", "mem:1"), written);
  }

  /**
   * A fleet's series start together: written at one age, every round of chunk.maxAge took them all
   * at once and their next chunks started together again.
   */
  @Test
  void seriesThatStartTogetherAreWrittenApartWithinChunkMaxAge() {
    long maxAge = Duration.ofMinutes(10).toNanos();
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofNanos(maxAge));
    int[] tenths = new int[10];
    for (int i = 0; i < 10_000; i++) {
      long age = buffers.maxAgeOf(SeriesKey.metric("cpu", Map.of("host", "h" + i, "dc", "dc" + i % 3)));
      assertTrue(age > maxAge / 2 && age <= maxAge, "between half of chunk.maxAge and all of it: " + age);
      tenths[(int) ((age - maxAge / 2 - 1) * 10 / (maxAge / 2))]++;
    }
    for (int tenth : tenths) {
      assertTrue(tenth > 800 && tenth < 1200, java.util.Arrays.toString(tenths));
    }
  }

  @Test
  void aFlushWritesManySeriesInFewStoreRequestsAndAFailedOneKeepsThemAll() throws IOException {
    List<Integer> requests = new ArrayList<>();
    ChunkSink batching = new ChunkSink() {
      @Override
      public Points accept(SeriesKey key, Points points) {
        throw new AssertionError("a flush writes in batches");
      }

      @Override
      public List<Points> acceptAll(List<SeriesKey> keys, List<Points> points) throws IOException {
        if (failing.get()) {
          throw new IOException("store down");
        }
        requests.add(keys.size());
        return points;
      }
    };
    SeriesBuffers buffers = new SeriesBuffers(1000, Long.MAX_VALUE, Duration.ofHours(1), batching, clock::get,
        Runnable::run, ledger);
    for (int series = 0; series < 2500; series++) {
      buffers.add(SeriesKey.metric("m" + series, Map.of()), 1, series);
    }
    failing.set(true);
    assertThrows(IOException.class, buffers::flushAll);
    assertEquals(2500, buffers.bufferedPoints(), "a failed batch goes back to its buffers, whole");
    failing.set(false);
    buffers.flushAll();
    assertEquals(List.of(1000, 1000, 500), requests);
    assertEquals(0, buffers.bufferedPoints());
  }

  @Test
  void underPressureTheOldestBuffersAreWrittenFirstUntilBelowTheTarget() throws IOException {
    SeriesBuffers buffers = buffers(100_000, Long.MAX_VALUE, Duration.ofHours(1));
    SeriesKey disk = SeriesKey.metric("disk", Map.of("host", "a"));
    clock.set(1);
    buffers.add(MEM, 1, 1);
    clock.set(2);
    buffers.add(CPU, 1, 1);
    clock.set(3);
    buffers.add(disk, 1, 1);
    for (int i = 2; i <= 10_000; i++) { // later points do not make a buffer younger
      buffers.add(MEM, i, i);
      buffers.add(CPU, i, i);
      buffers.add(disk, i, i);
    }
    long series = BufferMemory.series(CPU) + BufferMemory.series(MEM) + BufferMemory.series(disk);
    long each = held(buffers, disk) - BufferMemory.series(disk); // the three hold the same points alike
    assertTrue(each > SeriesBuffer.RESTART_PACKED_BYTES, "a drain frees what the buffer does not keep: " + each);
    assertEquals(0, buffers.flushOldest(buffers.memoryBytes()), "nothing to do at or below the target");
    assertEquals(List.of(), written);

    long afterTwo = series + 2 * SeriesBuffer.RESTART_PACKED_BYTES + each;
    assertEquals(2, buffers.flushOldest(afterTwo));
    assertEquals(List.of("mem:10000", "cpu:10000"), written, "oldest first, and no more than needed");
    assertEquals(afterTwo, buffers.memoryBytes());
    assertEquals(series + 2 * SeriesBuffer.RESTART_PACKED_BYTES, buffers.seriesBytes(), "kept arrays no write frees");

    assertEquals(1, buffers.flushOldest(0), "a target below the series' own memory writes everything");
    assertEquals(List.of("mem:10000", "cpu:10000", "disk:10000"), written);
    assertEquals(0, buffers.flushOldest(0), "then there is nothing left to write");
  }

  @Test
  void trackedCopiesDoNotMakePressureWriteEveryBuffer() throws IOException {
    // the server tracks outgoing chunks for live queries: a chunk's copy stays counted until
    // searches see it, so a flush that counted only unwritten chunks as leaving found no room
    // made and wrote every buffer, and records came out a few points long
    SeriesBuffers buffers = buffers(100_000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.trackOutgoing(Duration.ofSeconds(3));
    List<SeriesKey> keys = new java.util.ArrayList<>();
    for (int s = 0; s < 10; s++) {
      SeriesKey key = SeriesKey.metric("m" + s, Map.of("host", "a"));
      keys.add(key);
      clock.set(s + 1);
      for (int i = 0; i < 10_000; i++) {
        buffers.add(key, i, i);
      }
    }
    PackedPoints alike = new PackedPoints(ValueType.DOUBLE);
    for (int i = 0; i < 10_000; i++) {
      alike.add(i, i);
    }
    long copy = alike.takeAll(0).heapBytes(); // a chunk's exact copy
    long each = held(buffers, keys.get(0)) - BufferMemory.series(keys.get(0));
    long fixed = keys.stream().mapToLong(BufferMemory::series).sum();
    long kept = 4 * SeriesBuffer.RESTART_PACKED_BYTES;
    long target = fixed + kept + 6 * each; // room for 6 of the 10 buffers and what 4 drained ones keep

    assertEquals(4, buffers.flushOldest(target), "the four oldest make the room");
    assertEquals(List.of("m0:10000", "m1:10000", "m2:10000", "m3:10000"), written);
    assertEquals(target + 4 * copy, buffers.memoryBytes(),
        "their copies stay counted while searches may miss the records");

    clock.addAndGet(Duration.ofSeconds(3).toNanos());
    buffers.flushOld(); // the flusher's next round lets the copies go
    assertEquals(target, buffers.memoryBytes());
    assertEquals(0, buffers.flushOldest(target), "the room is there now");

    assertEquals(fixed + kept, buffers.seriesBytes(), "the part no write frees: the ten series, four kept arrays");
    buffers.flushAll();
    clock.addAndGet(Duration.ofSeconds(3).toNanos());
    buffers.flushOld();
    buffers.releaseEmpty();
    assertEquals(0, buffers.seriesBytes(), "buffers let go take their part with them");
    assertEquals(0, buffers.memoryBytes());
  }

  @Test
  void memoryCountsPointsStringsAndSeriesUntilWritten() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    SeriesKey log = new SeriesKey("log", "string", Map.of("host", "a"));
    String line = "x".repeat(2000);
    for (int i = 0; i < 10; i++) {
      buffers.add(CPU, i, i);
      buffers.addText(log, i, line, SeriesBuffer.NO_SEGMENT);
    }
    long series = BufferMemory.series(CPU) + BufferMemory.series(log);
    assertEquals(held(buffers, CPU) + BufferMemory.series(log) + 10 * BufferMemory.textPoint(line), buffers.memoryBytes());
    assertTrue(held(buffers, CPU) - BufferMemory.series(CPU) < 10 * BufferMemory.NUMERIC_POINT, "packed");
    assertTrue(BufferMemory.textPoint(line) > 4000, "a 2,000-character string costs its characters");
    buffers.flushAll();
    assertEquals(series + buffers.bufferOf(CPU).keptBytes(), buffers.memoryBytes(),
        "written points leave the budget; the series stay, with the array cpu's buffer kept");
  }

  @Test
  void idleBuffersAreLetGoAndComeBackOnTheNextPoint() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.releaseIdleAfter(Duration.ofSeconds(10));
    buffers.add(CPU, 1, 1);
    buffers.add(MEM, 1, 1);
    buffers.flushAll();
    clock.set(Duration.ofSeconds(6).toNanos());
    buffers.add(MEM, 2, 2);
    buffers.flushAll();
    clock.set(Duration.ofSeconds(11).toNanos());
    buffers.flushOld();
    assertEquals(1, buffers.activeSeries(), "cpu idle for 11 s is let go, mem (5 s) stays");
    assertFalse(buffers.isActive(CPU));
    assertEquals(held(buffers, MEM), buffers.memoryBytes());
    buffers.add(CPU, 3, 3);
    assertEquals(2, buffers.activeSeries());
    buffers.flushAll();
    assertEquals(List.of("cpu:1", "cpu:1", "mem:1", "mem:1"), written.stream().sorted().toList());
  }

  /**
   * The write path looks a batch's series up once (for the budget check) and then adds to the
   * buffers it found; a buffer let go in between must not swallow the points: they go to a new one.
   */
  @Test
  void aBatchResolvedBeforeItsBufferIsLetGoLandsInANewBuffer() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.releaseIdleAfter(Duration.ofSeconds(10));
    buffers.add(CPU, 1, 1);
    buffers.flushAll();
    PointBatch batch = new PointBatch();
    batch.accept(CPU, 2, 2);
    batch.accept(MEM, 2, 2);
    SeriesBuffers.Resolved resolved = buffers.resolve(batch);
    assertTrue(resolved.isActive(0));
    assertFalse(resolved.isActive(1));
    assertEquals(1, resolved.newSeries());

    clock.set(Duration.ofSeconds(11).toNanos());
    buffers.flushOld();
    assertFalse(buffers.isActive(CPU), "let go after it was resolved");
    buffers.addAll(batch, SeriesBuffer.NO_SEGMENT, resolved);
    assertTrue(buffers.isActive(CPU));
    assertEquals(2, buffers.bufferedPoints());
    assertEquals(held(buffers, CPU, MEM), buffers.memoryBytes());
    Map<SeriesKey, Points> left = snapshotOf(buffers);
    assertEquals(2L, left.get(CPU).timestamp(0));
    assertEquals(2L, left.get(MEM).timestamp(0));
  }

  /**
   * A batch that comes to a stripe another batch is inside goes on to the other stripes and comes
   * back to it: two request threads with the same series otherwise walked the stripes in step.
   * Fails without the pass-over unless the held stripe happens to be the batch's last (1 in 64).
   */
  @Test
  void aBatchPassesOverAStripeAnotherBatchHoldsAndComesBackToIt() throws Exception {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    SeriesHandle[] handles = new SeriesHandle[BufferLocks.STRIPES];
    for (int host = 0, found = 0; found < handles.length; host++) {
      SeriesKey key = SeriesKey.metric("cpu", Map.of("host", "h" + host));
      int stripe = BufferLocks.stripeOf(key.hashCode());
      if (handles[stripe] == null) {
        handles[stripe] = new SeriesHandle(key);
        found++;
      }
    }
    PointBatch batch = new PointBatch();
    for (SeriesHandle handle : handles) {
      batch.accept(handle, 1, 1);
    }
    BufferLocks locks = buffers.locks();
    java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Thread holder = new Thread(() -> {
      synchronized (locks.stripe(0)) {
        locks.markBusy(0, true);
        holding.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        locks.markBusy(0, false);
      }
    });
    holder.start();
    holding.await();
    Thread adder = new Thread(() -> buffers.addAll(batch, SeriesBuffer.NO_SEGMENT, buffers.resolve(batch)));
    adder.start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    int done = 0;
    while (System.nanoTime() < deadline) {
      done = 0;
      for (int stripe = 1; stripe < handles.length; stripe++) {
        done += handles[stripe].buffer != null ? 1 : 0;
      }
      if (done == handles.length - 1) {
        break;
      }
      Thread.sleep(5);
    }
    try {
      assertEquals(handles.length - 1, done, "every other stripe's series went in while stripe 0 was held");
      assertNull(handles[0].buffer, "the held stripe's series waits for its lock");
    } finally {
      release.countDown();
      holder.join();
      adder.join();
    }
    assertTrue(handles[0].buffer != null, "and goes in once the stripe is free");
    assertEquals(handles.length, buffers.bufferedPoints());
  }

  /**
   * A handle remembers its series' buffer from one batch to the next (the lookup is skipped); once
   * that buffer is let go, the next batch finds the new one, counts the series as new, and loses
   * no point in the old one.
   */
  @Test
  void aHandleKeepsItsBufferUntilTheBufferIsLetGo() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.releaseIdleAfter(Duration.ofSeconds(10));
    SeriesHandle cpu = new SeriesHandle(CPU);
    PointBatch first = new PointBatch();
    first.accept(cpu, 1, 1);
    SeriesBuffers.Resolved resolved = buffers.resolve(first);
    assertEquals(1, resolved.newSeries());
    buffers.addAll(first, SeriesBuffer.NO_SEGMENT, resolved);
    SeriesBuffer kept = cpu.buffer;
    assertTrue(kept != null && !kept.isRetired(), "the handle remembers the buffer the points went to");

    PointBatch second = new PointBatch();
    second.accept(cpu, 2, 2);
    assertEquals(0, buffers.resolve(second).newSeries(), "the remembered buffer is the series' buffer");
    buffers.addAll(second, SeriesBuffer.NO_SEGMENT, buffers.resolve(second));
    assertEquals(2, buffers.snapshot(CPU).size());

    buffers.flushAll();
    clock.set(Duration.ofSeconds(11).toNanos());
    buffers.flushOld();
    assertFalse(buffers.isActive(CPU));
    assertTrue(kept.isRetired());
    PointBatch third = new PointBatch();
    third.accept(cpu, 3, 3);
    SeriesBuffers.Resolved again = buffers.resolve(third);
    assertEquals(1, again.newSeries(), "a retired buffer counts for nothing: the series is new again");
    buffers.addAll(third, SeriesBuffer.NO_SEGMENT, again);
    assertTrue(buffers.isActive(CPU));
    assertTrue(cpu.buffer != kept && !cpu.buffer.isRetired(), "the handle now remembers the new buffer");
    assertEquals(3L, buffers.snapshot(CPU).timestamp(0));
    buffers.flushAll();
    assertEquals(List.of("cpu:1", "cpu:2"), written.stream().sorted().toList());
  }

  @Test
  void underPressureEveryEmptyBufferIsLetGo() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.add(CPU, 1, 1);
    buffers.flushAll();
    buffers.add(MEM, 1, 1);
    buffers.releaseEmpty();
    assertFalse(buffers.isActive(CPU));
    assertTrue(buffers.isActive(MEM), "a buffer with points stays");
    assertEquals(held(buffers, MEM), buffers.memoryBytes(), "cpu's key and kept array went with it");
  }

  @Test
  void anArrayPointCostsItsElements() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    SeriesKey cpus = new SeriesKey("cpus", "array", Map.of("host", "a"));
    buffers.addArray(cpus, 1, new double[1000], 1);
    assertEquals(BufferMemory.series(cpus) + BufferMemory.arrayPoint(1000), buffers.memoryBytes());
    assertTrue(BufferMemory.arrayPoint(1000) > 8000, "a thousand doubles cost their bytes");
  }

  @Test
  void buffersWithPointsAreNeverLetGo() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(10));
    buffers.releaseIdleAfter(Duration.ofSeconds(10));
    buffers.add(CPU, 1, 1);
    clock.set(Duration.ofHours(1).toNanos());
    buffers.flushOld();
    assertTrue(buffers.isActive(CPU));
    assertEquals(1, buffers.snapshot(CPU).size());
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
  void segmentsStayPinnedUntilTheCommitAfterTheirWrite() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    assertEquals(SegmentLedger.NONE, ledger.oldestPinned());
    buffers.add(CPU, 1, 1, 7);
    buffers.add(MEM, 1, 1, 5);
    buffers.add(CPU, 2, 2, 9);
    assertEquals(5, ledger.oldestPinned());
    failing.set(true);
    assertThrows(IOException.class, buffers::flushAll);
    assertEquals(5, ledger.oldestPinned(), "failed writes keep their segments needed");
    buffers.add(MEM, 2, 2, 11);
    failing.set(false);
    buffers.flushAll();
    assertEquals(5, ledger.oldestPinned(), "written, not yet committed");
    buffers.add(CPU, 3, 3, 12);
    buffers.commit(() -> { });
    assertEquals(12, ledger.oldestPinned(), "the commit released what was written before it");
    buffers.filter(CPU, points -> new Points());
    assertEquals(SegmentLedger.NONE, ledger.oldestPinned(), "dropped points need no segment");
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
      return points;
    }, clock::get, slowWriter, ledger);
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

  @Test
  void pointsOfAFailedWriteAreSeenByLiveQueriesAgain() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1)); // chunks on their way not tracked
    buffers.add(CPU, 1, 1);
    buffers.add(CPU, 2, 2);
    failing.set(true);
    assertThrows(IOException.class, buffers::flushAll);
    assertTrue(buffers.hasUnsearchable(), "the points are back in their buffer, not in the store");
    assertEquals(2, snapshotOf(buffers).get(CPU).size(), "and live queries see them");
  }

  @Test
  void aChunkCutAfterTheWriterStoppedIsWrittenByItsCaller() throws Exception {
    // a writer stopped while appends or a flush still cut full chunks (the hand-over's fallback)
    java.util.concurrent.ExecutorService stopped = java.util.concurrent.Executors.newSingleThreadExecutor();
    stopped.shutdown();
    SeriesBuffers buffers = new SeriesBuffers(3, Long.MAX_VALUE, Duration.ofHours(1), this::sink, clock::get, stopped,
        ledger);
    for (int i = 0; i < 4; i++) {
      buffers.add(CPU, i, i, 7);
    }
    assertEquals(List.of("cpu:3"), written, "cut and written although the writer takes nothing");
    assertEquals(1, buffers.bufferedPoints());
    java.util.concurrent.CompletableFuture<Void> flush = java.util.concurrent.CompletableFuture.runAsync(() -> {
      try {
        buffers.flushAll();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    flush.get(10, java.util.concurrent.TimeUnit.SECONDS); // nothing is left waiting for the stopped writer
    assertEquals(List.of("cpu:3", "cpu:1"), written);
    assertEquals(0, buffers.bufferedPoints());
    buffers.commit(() -> { });
    assertEquals(SegmentLedger.NONE, ledger.oldestPinned());
  }

  private static Points points(long... timestampsAndValues) {
    Points points = new Points();
    for (int i = 0; i < timestampsAndValues.length; i += 2) {
      points.add(timestampsAndValues[i], timestampsAndValues[i + 1]);
    }
    return points;
  }

  private static Map<SeriesKey, Points> snapshotOf(SeriesBuffers buffers) {
    Map<SeriesKey, Points> byKey = new java.util.HashMap<>();
    for (LiveSeries.Buffered buffered : buffers.snapshot()) {
      assertNull(byKey.put(buffered.key(), buffered.points()), "one entry per series");
    }
    return byKey;
  }

  @Test
  void snapshotCopiesBufferedPointsInArrivalOrder() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.add(CPU, 20, 2);
    buffers.add(CPU, 10, 1);
    buffers.add(CPU, 20, 22);
    buffers.add(MEM, 5, 5);
    Map<SeriesKey, Points> snapshot = snapshotOf(buffers);
    assertEquals(Map.of(CPU, points(20, 2, 10, 1, 20, 22), MEM, points(5, 5)), snapshot);
    assertEquals(List.of(new LiveSeries.Buffered(MEM, points(5, 5))), buffers.snapshot(key -> key.equals(MEM)));
    snapshot.get(CPU).clear();
    assertEquals(points(20, 2, 10, 1, 20, 22), buffers.snapshot(CPU), "a copy");
    buffers.flushAll();
    assertEquals(Map.of(), snapshotOf(buffers), "untracked: written chunks leave at once");
  }

  /**
   * Queries pay for the series with points to show (or shown within {@link
   * UnsearchableSeries#KEEP_QUIET_NANOS}), not for every series ever buffered.
   */
  @Test
  void snapshotsLookOnlyAtSeriesWithPointsToShow() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    for (int i = 0; i < 1000; i++) {
      buffers.add(SeriesKey.metric("idle", Map.of("n", String.valueOf(i))), 1, 1);
    }
    buffers.flushAll();
    clock.addAndGet(UnsearchableSeries.KEEP_QUIET_NANOS);
    buffers.flushOld(); // the flusher's round lets go of the series quiet for that long
    buffers.add(CPU, 10, 1);
    List<SeriesKey> asked = new ArrayList<>();
    assertEquals(1, buffers.snapshot(key -> asked.add(key)).size());
    assertEquals(List.of(CPU), asked);
    buffers.filter(CPU, points -> new Points()); // replay dropped what the store holds
    asked.clear();
    assertEquals(List.of(), buffers.snapshot(key -> asked.add(key)));
    clock.addAndGet(UnsearchableSeries.KEEP_QUIET_NANOS);
    buffers.flushOld();
    asked.clear();
    assertEquals(List.of(), buffers.snapshot(key -> asked.add(key)));
    assertEquals(List.of(), asked);
    buffers.add(CPU, 11, 2);
    assertEquals(Map.of(CPU, points(11, 2)), snapshotOf(buffers), "back once points arrive again");
  }

  @Test
  void trackedChunksStayInTheSnapshotUntilSearchable() throws IOException {
    SeriesBuffers buffers = buffers(2, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.trackOutgoing(Duration.ofSeconds(3));
    buffers.add(CPU, 20, 2);
    buffers.add(CPU, 10, 1); // full: written at once
    buffers.add(CPU, 10, 11);
    assertEquals(Map.of(CPU, points(20, 2, 10, 1, 10, 11)), snapshotOf(buffers), "written first, buffered after");
    clock.set(Duration.ofSeconds(2).toNanos());
    buffers.flushAll();
    assertEquals(Map.of(CPU, points(20, 2, 10, 1, 10, 11)), snapshotOf(buffers));
    clock.set(Duration.ofSeconds(3).toNanos());
    assertEquals(Map.of(CPU, points(10, 11)), snapshotOf(buffers), "the first chunk is searchable by now");
    clock.set(Duration.ofSeconds(5).toNanos());
    buffers.flushOld(); // the flusher forgets searchable chunks even when nobody asks
    clock.set(0);
    assertEquals(Map.of(), snapshotOf(buffers));
  }

  @Test
  void aCommitForgetsTheChunksWrittenBeforeItBegan() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.trackOutgoing(Duration.ofSeconds(3));
    buffers.add(CPU, 1, 1);
    buffers.flushAll();
    clock.set(1);
    buffers.add(CPU, 2, 2);
    buffers.commit(buffers::flushAll); // written while the commit runs: maybe not searchable yet
    assertEquals(Map.of(CPU, points(2, 2)), snapshotOf(buffers));
  }

  /** Found by MemoryFloodTest: a checkpoint's hard commit opens no searcher, so it must not hide chunks. */
  @Test
  void aDurableCommitKeepsTrackedChunksUntilTheSearchLagPassed() throws IOException {
    SeriesBuffers buffers = buffers(1000, Long.MAX_VALUE, Duration.ofHours(1));
    buffers.trackOutgoing(Duration.ofSeconds(3));
    buffers.add(CPU, 1, 1);
    buffers.flushAll();
    clock.set(1);
    buffers.makeDurable(() -> {});
    assertEquals(Map.of(CPU, points(1, 1)), snapshotOf(buffers), "not searchable yet: still shown");
    clock.set(Duration.ofSeconds(4).toNanos());
    assertEquals(Map.of(), snapshotOf(buffers), "searchable by now");
  }

  @Test
  void trackedChunksShowWhatWasStored() throws IOException {
    SeriesBuffers buffers = new SeriesBuffers(1000, Long.MAX_VALUE, Duration.ofHours(1),
        (key, points) -> points(1, 42), clock::get, Runnable::run, ledger);
    buffers.trackOutgoing(Duration.ofSeconds(3));
    buffers.add(CPU, 1, 40);
    buffers.add(CPU, 2, 44);
    buffers.flushAll();
    assertEquals(Map.of(CPU, points(1, 42)), snapshotOf(buffers), "a lossy rule's output, not the raw points");
  }

  @Test
  void chunksOnTheirWayAreInTheSnapshotAndComeBackWhenTheWriteFails() throws Exception {
    java.util.concurrent.CountDownLatch writing = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.ExecutorService writer = java.util.concurrent.Executors.newSingleThreadExecutor();
    SeriesBuffers buffers = new SeriesBuffers(2, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> {
      points.sortAndDeduplicate(); // as the record sink does, while queries take snapshots
      writing.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("store down");
    }, clock::get, writer, ledger);
    buffers.trackOutgoing(Duration.ofSeconds(3));
    try {
      buffers.add(CPU, 20, 2);
      buffers.add(CPU, 10, 1);
      writing.await();
      buffers.add(CPU, 30, 3);
      assertEquals(Map.of(CPU, points(20, 2, 10, 1, 30, 3)), snapshotOf(buffers), "in flight, then buffered");
      assertEquals(3, buffers.bufferedPoints());
      release.countDown();
      writer.shutdown();
      writer.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals(Map.of(CPU, points(20, 2, 10, 1, 30, 3)), snapshotOf(buffers), "back in the buffer once, as they came");
    } finally {
      release.countDown();
      writer.shutdownNow();
    }
  }

  @Test
  void writtenDuplicatesLeaveTheBufferedCount() throws IOException {
    SeriesBuffers deduplicating = new SeriesBuffers(1000, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> {
      points.sortAndDeduplicate();
      return points;
    }, clock::get, Runnable::run, ledger);
    deduplicating.add(CPU, 1, 1);
    deduplicating.add(CPU, 1, 2);
    deduplicating.flushAll();
    assertEquals(0, deduplicating.bufferedPoints());
  }
}
