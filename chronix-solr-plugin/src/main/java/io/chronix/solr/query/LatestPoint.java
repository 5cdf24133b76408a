package io.chronix.solr.query;

import io.chronix.core.series.Points;
import java.util.ArrayList;
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
    List<Candidate> candidates = new ArrayList<>(chunks.size() + live.size());
    for (StoredChunk chunk : chunks) {
      if (chunk.decoded() == null && chunk.endMillis() <= range.toMillis()) {
        if (chunk.stats() == null || Double.isNaN(chunk.stats().last())) {
          return null;
        }
        candidates.add(new Candidate(chunk.endMillis(), chunk.endMillis() * 1_000_000L, chunk.stats().last()));
      } else {
        Points points = chunk.withData(searcher).decode(fields, range);
        if (!points.isSorted()) {
          return null;
        }
        candidates.add(last(points, range));
      }
    }
    for (LiveChunk run : live) {
      candidates.add(last(run.points(), range));
    }
    Candidate best = null;
    int atBest = 0;
    for (Candidate candidate : candidates) {
      if (candidate == null) {
        continue;
      }
      if (best == null || candidate.millis() > best.millis()) {
        best = candidate;
        atBest = 1;
      } else if (candidate.millis() == best.millis()) {
        atBest++; // which one wins a shared millisecond is the join's to say
      }
    }
    if (best == null) {
      return new Points(0);
    }
    if (atBest > 1) {
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
}
