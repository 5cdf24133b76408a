package io.chronix.solr.query;

import io.chronix.core.series.Points;
import java.util.List;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * The latest point in a range of a series of doubles, from what each of its records and buffered
 * runs says its last point in the range is, without joining them ({@link
 * SeriesCollector#collectLatest}). Timestamps to the millisecond: a record's statistics know its
 * last point's millisecond ({@code end}), not its nanosecond.
 */
final class LatestPoint {

  private LatestPoint() {}

  /** One record's or run's last point in the range. */
  private record Candidate(long millis, long nanos, double value) {}

  /**
   * The series' latest point in the range (none where it has none), or null where the parts do not
   * tell it apart: two of them end in the same millisecond (which one wins is the join's to say),
   * a record has no statistics, its last value is NaN (a stale marker's bits are not kept in the
   * statistics), or its decoded points are out of time order.
   *
   * @param chunks records whose span ends within the range were read without their blob; those
   *     reaching past it were decoded for the range as they were read
   */
  static Points of(List<StoredChunk> chunks, List<LiveChunk> live, SeriesFields fields, SolrIndexSearcher searcher,
      TimeRange range) {
    Candidate best = null;
    boolean tie = false;
    for (StoredChunk chunk : chunks) {
      Candidate candidate;
      if (chunk.decoded() == null && chunk.endMillis() <= range.toMillis()) {
        if (chunk.stats() == null || Double.isNaN(chunk.stats().last())) {
          return null;
        }
        candidate = new Candidate(chunk.endMillis(), chunk.endMillis() * 1_000_000L, chunk.stats().last());
      } else {
        Points points = chunk.withData(searcher).decode(fields, range);
        if (!points.isSorted()) {
          return null;
        }
        candidate = last(points, range);
      }
      if (candidate != null) {
        tie |= best != null && candidate.millis() == best.millis();
        best = best == null || candidate.millis() > best.millis() ? candidate : best;
      }
    }
    for (LiveChunk run : live) {
      Candidate candidate = last(run.points(), range);
      if (candidate != null) {
        tie |= best != null && candidate.millis() == best.millis();
        best = best == null || candidate.millis() > best.millis() ? candidate : best;
      }
    }
    if (best == null) {
      return new Points(0);
    }
    if (tie && sharedByTheLatest(chunks, live, best, range)) {
      return null;
    }
    Points latest = new Points(1);
    latest.add(best.nanos(), best.value());
    return latest;
  }

  /** The last of sorted points within the range, or null. */
  private static Candidate last(Points points, TimeRange range) {
    for (int i = points.size() - 1; i >= 0; i--) {
      long nanos = points.timestamp(i);
      if (nanos < range.fromNanos()) {
        return null;
      }
      if (nanos < range.toNanosExclusive()) {
        return new Candidate(Math.floorDiv(nanos, 1_000_000L), nanos, points.value(i));
      }
    }
    return null;
  }

  /** Whether another part's last point falls into the latest one's millisecond (a tie among earlier ones does not count). */
  private static boolean sharedByTheLatest(List<StoredChunk> chunks, List<LiveChunk> live, Candidate best,
      TimeRange range) {
    int atBest = 0;
    for (StoredChunk chunk : chunks) {
      long end = chunk.decoded() == null && chunk.endMillis() <= range.toMillis() ? chunk.endMillis()
          : lastMillis(chunk.decoded(), range);
      atBest += end == best.millis() ? 1 : 0;
    }
    for (LiveChunk run : live) {
      atBest += lastMillis(run.points(), range) == best.millis() ? 1 : 0;
    }
    return atBest > 1;
  }

  private static long lastMillis(Points points, TimeRange range) {
    Candidate last = points == null ? null : last(points, range);
    return last == null ? Long.MIN_VALUE : last.millis();
  }
}
