package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.wal.FsyncPolicy;
import io.chronix.ingest.wal.SegmentLedger;
import io.chronix.ingest.wal.WriteAheadLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers, flushes (as {@code POST /flush} runs them, outside any checkpoint), full buffers cut on
 * their own threads and checkpoints, all at once; then the process "dies": nothing more is flushed
 * or committed. Every acknowledged point must be committed to the store or still in the log: a
 * checkpoint must never have deleted a segment whose points were on their way or not committed.
 */
class CheckpointRaceTest {

  private static final int WRITERS = 4;
  private static final int BATCHES = 800;
  private static final int POINTS = 10;

  @TempDir Path dir;

  /** A store whose commit makes durable what was written before it. */
  private static final class Store {
    private final List<Long> written = new ArrayList<>();
    private final Set<Long> committed = new HashSet<>();

    synchronized Points write(Points points) {
      for (int i = 0; i < points.size(); i++) {
        written.add((long) points.value(i));
      }
      return points;
    }

    synchronized void commit() {
      committed.addAll(written);
    }

    synchronized Set<Long> committed() {
      return new HashSet<>(committed);
    }
  }

  /** What a crash at one moment would leave: the committed points, the log's files, what was acknowledged. */
  private record Crash(Set<Long> committed, Path log, Set<Long> acknowledged) {}

  @Test
  void noCheckpointDeletesWhatIsNotCommitted() throws Exception {
    Store store = new Store();
    SegmentLedger ledger = new SegmentLedger();
    ExecutorService chunkWriters = Executors.newFixedThreadPool(2);
    ExecutorService threads = Executors.newFixedThreadPool(WRITERS + 2);
    Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicBoolean running = new AtomicBoolean(true);
    // every step holds the shared side; a crash takes the exclusive side and copies what would remain
    ReentrantReadWriteLock world = new ReentrantReadWriteLock();
    List<Crash> crashes = new ArrayList<>();
    Path log = dir.resolve("wal");
    try (WriteAheadLog wal = new WriteAheadLog(log, 8 << 10, FsyncPolicy.NEVER, 1000)) {
      wal.replay((batch, segment) -> { });
      SeriesBuffers buffers = new SeriesBuffers(50, Long.MAX_VALUE, Duration.ofHours(1),
          (key, points) -> store.write(points), chunkWriters, ledger);
      IngestPipeline pipeline = new IngestPipeline(wal, ledger, buffers, store::commit, Long.MAX_VALUE, Integer.MAX_VALUE,
          () -> { });
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        work.add(threads.submit(() -> {
          for (int b = 0; b < BATCHES; b++) {
            PointBatch batch = new PointBatch();
            for (int p = 0; p < POINTS; p++) {
              long value = ((long) writer * BATCHES + b) * POINTS + p;
              batch.accept(SeriesKey.metric("s" + (value % 37), Map.of()), value, value);
            }
            world.readLock().lock();
            try {
              pipeline.write(batch);
              for (int p = 0; p < POINTS; p++) {
                acknowledged.add(((long) writer * BATCHES + b) * POINTS + p);
              }
            } finally {
              world.readLock().unlock();
            }
          }
          return null;
        }));
      }
      Future<?> flushes = threads.submit(() -> {
        while (running.get()) {
          step(world, () -> buffers.flushAll());
          step(world, () -> buffers.commit(store::commit));
        }
        return null;
      });
      Future<?> checkpoints = threads.submit(() -> {
        while (running.get()) {
          step(world, pipeline::checkpoint);
        }
        return null;
      });
      while (work.stream().anyMatch(f -> !f.isDone())) {
        Thread.sleep(5);
        world.writeLock().lock();
        try {
          Path copy = dir.resolve("crash-" + crashes.size());
          Files.createDirectories(copy);
          try (Stream<Path> files = Files.list(log)) {
            for (Path file : files.toList()) {
              Files.copy(file, copy.resolve(file.getFileName()));
            }
          }
          crashes.add(new Crash(store.committed(), copy, new HashSet<>(acknowledged)));
        } finally {
          world.writeLock().unlock();
        }
      }
      for (Future<?> writer : work) {
        writer.get();
      }
      running.set(false);
      flushes.get();
      checkpoints.get();
    } finally {
      chunkWriters.shutdown();
      threads.shutdown();
    }
    assertTrue(crashes.size() >= 5, "crash points: " + crashes.size());
    for (Crash crash : crashes) {
      Set<Long> recovered = new HashSet<>(crash.committed());
      try (WriteAheadLog wal = new WriteAheadLog(crash.log(), 8 << 10, FsyncPolicy.NEVER, 1000)) {
        wal.replay((batch, segment) -> {
          for (int i = 0; i < batch.size(); i++) {
            recovered.add((long) batch.value(i));
          }
        });
      }
      Set<Long> lost = new HashSet<>(crash.acknowledged());
      lost.removeAll(recovered);
      assertEquals(Set.of(), lost, "acknowledged points neither committed nor in the log at " + crash.log());
    }
  }

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  private static void step(ReentrantReadWriteLock world, Step step) throws Exception {
    world.readLock().lock();
    try {
      step.run();
    } finally {
      world.readLock().unlock();
    }
  }
}
