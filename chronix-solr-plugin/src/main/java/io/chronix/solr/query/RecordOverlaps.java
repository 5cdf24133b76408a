package io.chronix.solr.query;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import java.util.List;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * Whether records of one series whose spans overlap hold a point at the same timestamp. Two
 * clients sending two parts of one series at once leave records that each span both parts but
 * share no timestamp: their statistics still answer together. A shared timestamp means a point
 * sent again, where the later write wins and only the points tell the answer.
 *
 * <p>Where two records' whole overlap holds timestamps in both (the first and last of them, or
 * none) is kept by their ids, for the JVM, so each pair's blobs are read once: a record id names
 * its series, span, point count and blob checksum, so it never stands for other points, and a
 * dashboard asks the same records again at every refresh. Reading both records' timestamps over a
 * P4 series' overlap of three hours was more than half of a whole-series {@code max} (docs/benchmarks.md).
 */
final class RecordOverlaps {

  /** Pairs whose verdicts are kept: some 200 bytes each. */
  private static final int KEPT_PAIRS = 10_000;
  private static final Cache<Pair, Shared> SHARED = Caffeine.newBuilder().maximumSize(KEPT_PAIRS)
      .executor(Runnable::run).build();

  private record Pair(String earlierId, String laterId) {}

  /** The first and last timestamp (nanoseconds) that two records both hold; {@link #NONE} where none. */
  record Shared(long first, long last) {
    static final Shared NONE = new Shared(Long.MAX_VALUE, Long.MIN_VALUE);

    /** Whether a timestamp held by both may lie in the range (between the first and last, as the range holds them). */
    boolean reaches(TimeRange range) {
      return first < range.toNanosExclusive() && last >= range.fromNanos();
    }
  }

  private RecordOverlaps() {}

  /**
   * Whether no two of the records (sorted by start) may hold a point at one timestamp within the
   * range: none where the range reaches from the first to the last timestamp a pair shares, read
   * from the timestamps where their spans overlap (blobs read once a pair, values left alone).
   */
  static boolean shareNoTimestamp(List<StoredChunk> byStart, SeriesFields series, TimeRange range,
      SolrIndexSearcher searcher) {
    for (int i = 0; i < byStart.size(); i++) {
      StoredChunk earlier = byStart.get(i);
      for (int j = i + 1; j < byStart.size(); j++) {
        StoredChunk later = byStart.get(j);
        if (later.startMillis() > earlier.endMillis()) {
          break; // sorted by start: the ones after start later still
        }
        Pair pair = new Pair(earlier.id(), later.id());
        Shared shared = SHARED.getIfPresent(pair);
        if (shared == null) {
          TimeRange overlap = new TimeRange(later.startMillis(), Math.min(earlier.endMillis(), later.endMillis()));
          shared = shared(timestamps(earlier, series, overlap, searcher), timestamps(later, series, overlap, searcher));
          SHARED.put(pair, shared);
        }
        // a timestamp in both: the answer needs the points where the range may hold it
        if (shared.reaches(range)) {
          return false;
        }
      }
    }
    return true;
  }

  private static long[] timestamps(StoredChunk chunk, SeriesFields series, TimeRange range, SolrIndexSearcher searcher) {
    StoredChunk read = chunk.withData(searcher);
    if (read.data() == null) { // decoded as it was read: its points in the query's range stand in
      throw new IllegalStateException("record " + chunk.id() + " was decoded before its overlaps were told");
    }
    try {
      return ChunkCodec.timestampsIn(read.data(), ChunkCodec.Limits.DEFAULT, range.fromNanos(), range.toNanosExclusive());
    } catch (CorruptBlobException e) {
      throw read.undecodable(series, e);
    }
  }

  /** The first and last value that two ascending arrays both hold. */
  static Shared shared(long[] a, long[] b) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        first = Math.min(first, a[i]);
        last = a[i];
        i++;
        j++;
      } else if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return first == Long.MAX_VALUE ? Shared.NONE : new Shared(first, last);
  }
}
