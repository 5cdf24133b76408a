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
 * <p>What two records' whole overlap holds is kept by their ids, for the JVM: a record id names
 * its series, span, point count and blob checksum, so it never stands for other points, and a
 * dashboard asks the same records again at every refresh. Reading both records' timestamps over a
 * P4 series' overlap of three hours was more than half of a whole-series {@code max} (docs/benchmarks.md).
 */
final class RecordOverlaps {

  /** Pairs whose verdicts are kept: some 200 bytes each. */
  private static final int KEPT_PAIRS = 10_000;
  private static final Cache<Pair, Boolean> APART = Caffeine.newBuilder().maximumSize(KEPT_PAIRS)
      .executor(Runnable::run).build();

  private record Pair(String earlierId, String laterId) {}

  private RecordOverlaps() {}

  /**
   * Whether no two of the records (sorted by start) hold a point at one timestamp within the range,
   * read from the timestamps where their spans overlap (blobs read as needed, values left alone).
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
        TimeRange overlap = new TimeRange(later.startMillis(), Math.min(earlier.endMillis(), later.endMillis()));
        Pair pair = new Pair(earlier.id(), later.id());
        Boolean apart = APART.getIfPresent(pair);
        if (apart == null) {
          apart = !share(earlier, later, overlap, series, searcher);
          APART.put(pair, apart);
        }
        if (apart) {
          continue;
        }
        // a timestamp in both: the answer needs the points only where the range holds it
        long from = Math.max(overlap.fromMillis(), range.fromMillis());
        long to = Math.min(overlap.toMillis(), range.toMillis());
        if (from <= to && share(earlier, later, new TimeRange(from, to), series, searcher)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean share(StoredChunk earlier, StoredChunk later, TimeRange range, SeriesFields series,
      SolrIndexSearcher searcher) {
    return shareAny(timestamps(earlier, series, range, searcher), timestamps(later, series, range, searcher));
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

  /** Whether two ascending arrays hold a common value. */
  static boolean shareAny(long[] a, long[] b) {
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        return true;
      }
      if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return false;
  }
}
