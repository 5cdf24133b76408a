package io.chronix.solr.query;

import io.chronix.core.codec.CorruptBlobException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.FutureTask;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * Records a query's range cuts, decoded for the range while the records are read ({@link
 * StoredChunk#decodedFor}), a batch at a time. Decoded one by one in the reading thread, they were a
 * quarter of a {@code rate} over 1,000 counters on one core while the other waited.
 *
 * <p>A batch of many points goes to the common pool while the reading thread reads on; a batch of
 * few is decoded in the reading thread (the hand-off would cost more). Each batch was once spread
 * over the cores with the reader waiting for it: the reading, a sixth of a {@code rate} over 1,000
 * counters, then had one core to itself. At most {@link #IN_FLIGHT} batches wait for a core: past
 * that the reader decodes the newest itself, so blobs are still let go long before the join.
 *
 * <p>The chunk lists and the series' fields belong to the reading thread: a batch's task gets its
 * chunks as they were added and leaves its decoded chunks and any undecodable blob to be placed
 * and reported in the reading thread ({@link #decode}).
 */
final class CutRecords {

  /** Records held before their batch is decoded. */
  static final int BATCH = 256;
  /** Batches handed to the pool and not yet decoded, at most. */
  static final int IN_FLIGHT = 4;

  private record Pending(List<StoredChunk> chunks, int index, StoredChunk chunk, SeriesFields fields) {}

  /** Where a batch is decoded: in the reading thread, on all cores with the reader waiting, or by the pool. */
  private enum Decoding { HERE, SPREAD, HANDED_OFF }

  /** A batch and its decoding: index i of {@code decoded} or {@code errors} for record i. */
  private record Batch(List<Pending> records, StoredChunk[] decoded, CorruptBlobException[] errors,
      FutureTask<Void> task) {

    static Batch of(List<Pending> records, TimeRange range, Decoding where) {
      StoredChunk[] decoded = new StoredChunk[records.size()];
      CorruptBlobException[] errors = new CorruptBlobException[records.size()];
      IntConsumer decodeOne = i -> {
        try {
          decoded[i] = records.get(i).chunk().decodedFor(range);
        } catch (CorruptBlobException e) {
          errors[i] = e;
        }
      };
      FutureTask<Void> task = null;
      switch (where) {
        case HERE -> IntStream.range(0, decoded.length).forEach(decodeOne);
        case SPREAD -> IntStream.range(0, decoded.length).parallel().forEach(decodeOne);
        default -> {
          task = new FutureTask<>(() -> IntStream.range(0, decoded.length).forEach(decodeOne), null);
          ForkJoinPool.commonPool().execute(task);
        }
      }
      return new Batch(records, decoded, errors, task);
    }

    boolean isDone() {
      return task == null || task.isDone();
    }

    /**
     * Places the chunks, decoding them here first where no worker has started on them: a task runs
     * once, whoever starts it (other queries' batches may hold the pool's workers), and is only
     * waited for while a worker decodes it.
     */
    void place() {
      if (task != null) {
        task.run();
        try {
          task.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while records were decoded", e);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException runtime) {
            throw runtime;
          }
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
      for (int i = 0; i < decoded.length; i++) {
        Pending cut = records.get(i);
        if (errors[i] != null) {
          throw cut.chunk().undecodable(cut.fields(), errors[i]);
        }
        cut.chunks().set(cut.index(), decoded[i]);
      }
    }
  }

  private final TimeRange range;
  private final long parallelPoints;
  private List<Pending> pending = new ArrayList<>(BATCH);
  private long points;
  /** Handed-off batches, the newest last. */
  private final Deque<Batch> inFlight = new ArrayDeque<>();

  /** @param parallelPoints points in a batch from which it is handed to another core */
  CutRecords(TimeRange range, long parallelPoints) {
    this.range = range;
    this.parallelPoints = parallelPoints;
  }

  /**
   * Adds a record with its blob to {@code chunks}, where it is replaced by its decoded self when
   * its batch is placed.
   *
   * @param count the record's points
   */
  void add(List<StoredChunk> chunks, StoredChunk chunk, SeriesFields fields, long count) {
    chunks.add(chunk);
    pending.add(new Pending(chunks, chunks.size() - 1, chunk, fields));
    points += count;
    if (pending.size() >= BATCH) {
      send(points >= parallelPoints ? Decoding.HANDED_OFF : Decoding.HERE);
    }
  }

  private void send(Decoding where) {
    Batch batch = Batch.of(pending, range, where);
    pending = new ArrayList<>(BATCH);
    points = 0;
    if (where != Decoding.HANDED_OFF) {
      batch.place();
      return;
    }
    inFlight.addLast(batch);
    while (!inFlight.isEmpty() && inFlight.getFirst().isDone()) { // decoded meanwhile: placed now
      inFlight.removeFirst().place();
    }
    if (inFlight.size() > IN_FLIGHT) {
      // the newest is likely still queued: it runs here while a worker decodes the older ones
      inFlight.removeLast().place();
    }
  }

  /** Decodes and places the records still held; call before reading the chunks the records went into. */
  void decode() {
    if (!pending.isEmpty()) {
      // the last batch on all cores if it is large: a worker busy with the batches before it joins
      // in when it is done with them, else this thread decodes it all
      send(pending.size() > 1 && points >= parallelPoints ? Decoding.SPREAD : Decoding.HERE);
    }
    // newest first: those still queued run here, while a worker takes the oldest
    while (!inFlight.isEmpty()) {
      inFlight.removeLast().place();
    }
  }
}
