package io.chronix.solr.query;

import io.chronix.core.record.RangeStats;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * A joined series as its statistics only (count, min, max, sum, first, last over the range), for
 * queries that ask nothing but such aggregations: records inside the range give their stored
 * statistics, only the records cut by the range's ends are read, as far as their blocks need. Spans are epoch milliseconds
 * of the first and last point in range. Records whose spans overlap answer together where they
 * share no timestamp ({@link RecordOverlaps}).
 */
public record RecordSummary(RecordStats stats, long firstMillis, long lastMillis) {

  /**
   * A group's records by their start and its buffered points after them, where statistics can
   * stand in for their points: each record has statistics, and each run of buffered points is
   * numeric, strictly increasing and after everything before it (the records' last millisecond
   * included), so that no point replaces another. Buffered points include chunks on their way to
   * the store, which the records may hold already: those share the records' timestamps and have
   * the series joined from its points instead. Records that overlap ({@code overlapping}) stand in
   * only where their timestamps tell that they share none, which {@link #of} reads.
   */
  record Parts(List<StoredChunk> byStart, List<Points> after, boolean overlapping) {

    /** The parts, or null where statistics cannot stand in: told before any blob is read. */
    static Parts of(List<StoredChunk> chunks, List<Points> buffered) {
      List<StoredChunk> byStart = RecordSummary.byStart(chunks);
      if (byStart == null) {
        return null;
      }
      long latestEnd = Long.MIN_VALUE;
      boolean overlapping = false;
      for (StoredChunk chunk : byStart) {
        overlapping |= chunk.startMillis() <= latestEnd;
        latestEnd = Math.max(latestEnd, chunk.endMillis());
      }
      List<Points> after = bufferedAfter(byStart.isEmpty() ? Long.MIN_VALUE : latestEnd, buffered);
      return after == null ? null : new Parts(byStart, after, overlapping);
    }
  }

  /**
   * The summary of the parts within the range, or null where the range holds none of their points
   * or where the statistics cannot tell it: records that overlap and share a timestamp, or whose
   * first (or last) points fall into one millisecond. The series is then joined from its points.
   */
  static RecordSummary of(Parts parts, SeriesFields series, TimeRange range, SolrIndexSearcher searcher) {
    if (parts.overlapping() && !RecordOverlaps.shareNoTimestamp(parts.byStart(), series, range, searcher)) {
      return null;
    }
    RecordStats total = null;
    long first = 0;
    long last = 0;
    for (StoredChunk chunk : parts.byStart()) {
      RecordStats stats;
      long from;
      long to;
      if (range.isAll() || (chunk.startMillis() >= range.fromMillis() && chunk.endMillis() <= range.toMillis())) {
        stats = chunk.stats();
        from = chunk.startMillis();
        to = chunk.endMillis();
      } else {
        RangeStats inRange = chunk.rangeStats(series, range);
        if (inRange == null) {
          continue;
        }
        stats = inRange.stats();
        from = Math.floorDiv(inRange.firstNanos(), 1_000_000L);
        to = Math.floorDiv(inRange.lastNanos(), 1_000_000L);
      }
      if (total == null) {
        total = stats;
        first = from;
        last = to;
      } else if (!parts.overlapping()) {
        total = total.followedBy(stats);
        last = to;
      } else {
        if (from == first || to == last) {
          return null; // whose point comes first is not told by the millisecond
        }
        total = total.with(stats, from < first, to > last);
        first = Math.min(first, from);
        last = Math.max(last, to);
      }
    }
    for (Points points : parts.after()) {
      Points inRange = range.isAll() ? points : points.clip(range.fromNanos(), range.toNanosExclusive());
      if (inRange.isEmpty()) {
        continue;
      }
      RecordStats stats = RecordStats.of(inRange);
      if (total == null) {
        total = stats;
        first = Math.floorDiv(inRange.timestamp(0), 1_000_000L);
      } else {
        total = total.followedBy(stats);
      }
      last = Math.floorDiv(inRange.timestamp(inRange.size() - 1), 1_000_000L);
    }
    return total == null ? null : new RecordSummary(total, first, last);
  }

  /**
   * The buffered points in time order where each run is numeric, strictly increasing and after
   * everything before it (the records' last millisecond included); else null.
   */
  private static List<Points> bufferedAfter(long recordsEnd, List<Points> buffered) {
    if (buffered.isEmpty()) {
      return buffered;
    }
    List<Points> runs = new ArrayList<>(buffered.size());
    for (Points points : buffered) {
      if (!points.isEmpty()) {
        runs.add(points);
      }
    }
    runs.sort(Comparator.comparingLong(points -> points.timestamp(0)));
    long floor = recordsEnd == Long.MIN_VALUE ? Long.MIN_VALUE : (recordsEnd + 1) * 1_000_000L;
    for (Points points : runs) {
      boolean numeric = points.type() == ValueType.DOUBLE || points.type() == ValueType.LONG;
      if (!numeric || points.timestamp(0) < floor || !points.isStrictlyIncreasing()) {
        return null;
      }
      floor = points.timestamp(points.size() - 1) + 1;
    }
    return runs;
  }

  /** The records by their start, or null where one lacks statistics. */
  private static List<StoredChunk> byStart(List<StoredChunk> chunks) {
    List<StoredChunk> byStart = new ArrayList<>(chunks);
    byStart.sort(Comparator.comparingLong(StoredChunk::startMillis));
    for (int i = 0; i < byStart.size(); i++) {
      if (byStart.get(i).stats() == null) {
        return null;
      }
    }
    return byStart;
  }

}
