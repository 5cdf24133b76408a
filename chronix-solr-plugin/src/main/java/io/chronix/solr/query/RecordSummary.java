package io.chronix.solr.query;

import io.chronix.core.record.RangeStats;
import io.chronix.core.record.RecordStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A joined series as its statistics only (count, min, max, sum, first, last over the range), for
 * queries that ask nothing but such aggregations: records inside the range give their stored
 * statistics, only the records cut by the range's ends are read, as far as their blocks need. Spans are epoch milliseconds
 * of the first and last point in range.
 */
public record RecordSummary(RecordStats stats, long firstMillis, long lastMillis) {

  /**
   * The summary of a group's records within the range, or null where statistics cannot stand in
   * for the points: records that overlap in time (a later one may replace a point of an earlier
   * one), records without statistics, or no point in range at all.
   */
  static RecordSummary of(List<StoredChunk> chunks, SeriesFields series, TimeRange range) {
    List<StoredChunk> byStart = byStart(chunks);
    if (byStart == null) {
      return null;
    }
    RecordStats total = null;
    long first = 0;
    long last = 0;
    for (StoredChunk chunk : byStart) {
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
      } else {
        total = total.followedBy(stats);
      }
      last = to;
    }
    return total == null ? null : new RecordSummary(total, first, last);
  }

  /**
   * Whether statistics can stand in for the records' points (each has them, none overlaps another
   * in time), told before any is read: a query that summarizes decodes only the groups where they
   * cannot, and counts only those against its limit.
   */
  static boolean answers(List<StoredChunk> chunks) {
    return byStart(chunks) != null;
  }

  /** The records by their start, or null where one lacks statistics or two overlap. */
  private static List<StoredChunk> byStart(List<StoredChunk> chunks) {
    List<StoredChunk> byStart = new ArrayList<>(chunks);
    byStart.sort(Comparator.comparingLong(StoredChunk::startMillis));
    for (int i = 0; i < byStart.size(); i++) {
      if (byStart.get(i).stats() == null || (i > 0 && byStart.get(i).startMillis() <= byStart.get(i - 1).endMillis())) {
        return null;
      }
    }
    return byStart;
  }

}
