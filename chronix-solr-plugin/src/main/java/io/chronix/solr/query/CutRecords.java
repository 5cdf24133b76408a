package io.chronix.solr.query;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Records a query's range cuts, decoded for the range while the records are read ({@link
 * StoredChunk#decodedFor}), a batch at a time: a batch of many points is spread over the cores.
 * Decoded one by one in the reading thread, they were a quarter of a {@code rate} over 1,000
 * counters on one core while the other waited. A batch holds at most {@link #BATCH} blobs, so
 * the blobs are still let go long before the join.
 */
final class CutRecords {

  /** Records held before their batch is decoded. */
  static final int BATCH = 256;

  private record Pending(List<StoredChunk> chunks, int index, SeriesFields fields) {}

  private final TimeRange range;
  private final long parallelPoints;
  private final List<Pending> pending = new ArrayList<>(BATCH);
  private long points;

  /** @param parallelPoints points in a batch from which it is decoded on all cores */
  CutRecords(TimeRange range, long parallelPoints) {
    this.range = range;
    this.parallelPoints = parallelPoints;
  }

  /**
   * Adds a record with its blob to {@code chunks}, where it is replaced by its decoded self when
   * its batch is decoded.
   *
   * @param count the record's points
   */
  void add(List<StoredChunk> chunks, StoredChunk chunk, SeriesFields fields, long count) {
    chunks.add(chunk);
    pending.add(new Pending(chunks, chunks.size() - 1, fields));
    points += count;
    if (pending.size() >= BATCH) {
      decode();
    }
  }

  /** Decodes the records still held; call before reading the chunks the records went into. */
  void decode() {
    if (pending.isEmpty()) {
      return;
    }
    StoredChunk[] decoded = new StoredChunk[pending.size()];
    IntStream indexes = IntStream.range(0, decoded.length);
    if (decoded.length > 1 && points >= parallelPoints) {
      indexes = indexes.parallel();
    }
    indexes.forEach(i -> {
      Pending cut = pending.get(i);
      decoded[i] = cut.chunks().get(cut.index()).decodedFor(cut.fields(), range);
    });
    // placed in the reading thread: the groups' lists are not shared with the decoding threads
    for (int i = 0; i < decoded.length; i++) {
      Pending cut = pending.get(i);
      cut.chunks().set(cut.index(), decoded[i]);
    }
    pending.clear();
    points = 0;
  }
}
