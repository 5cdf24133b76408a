package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.Points;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Records whose spans overlap: statistics answer together where no timestamp is in two of them
 * (two parts of one series sent at once by two clients), the points where one is (a point sent
 * again, whose later write wins).
 */
class RecordSummaryTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final SeriesFields SERIES = new SeriesFields();

  /** A record of the points at these seconds after T0, value = second * 10 + 1. */
  private static StoredChunk record(String id, long version, int... seconds) {
    Points points = new Points();
    for (int second : seconds) {
      points.add((T0 + second * 1000L) * 1_000_000L, second * 10 + 1);
    }
    return record(id, version, points, RecordStats.of(points));
  }

  /** Ids name the points, as the store's do (RecordOverlaps keeps verdicts by them). */
  private static StoredChunk record(String id, long version, Points points, RecordStats stats) {
    id = id + "-" + points.size() + "-" + java.util.Arrays.hashCode(java.util.Arrays.copyOf(points.timestampArray(), points.size()));
    return new StoredChunk(id, 0, version, ChunkCodec.lossless().encode(points), points.timestamp(0) / 1_000_000L,
        points.timestamp(points.size() - 1) / 1_000_000L, stats, null);
  }

  private static RecordSummary summary(TimeRange range, StoredChunk... records) {
    RecordSummary.Parts parts = RecordSummary.Parts.of(List.of(records), List.of());
    assertNotNull(parts);
    return RecordSummary.of(parts, SERIES, range, null); // blobs at hand: no searcher needed
  }

  @Test
  void interleavedRecordsWithoutACommonTimestampAnswerTogether() {
    StoredChunk evens = record("a", 1, 0, 2, 4, 6, 8, 10);
    StoredChunk odds = record("b", 2, 1, 3, 5, 7, 9, 11, 13);
    assertTrue(RecordSummary.Parts.of(List.of(evens, odds), List.of()).overlapping());

    RecordSummary whole = summary(TimeRange.ALL, evens, odds);
    assertEquals(new RecordStats(13, 1, 131, whole.stats().sum(), 1, 131), whole.stats());
    assertEquals(sum(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13), whole.stats().sum(), 1e-9);
    assertEquals(T0, whole.firstMillis());
    assertEquals(T0 + 13_000, whole.lastMillis());

    // the later record first and last, whichever comes first by start
    RecordSummary inner = summary(TimeRange.ALL, record("c", 1, 1, 4, 7), record("d", 2, 0, 2, 3, 9));
    assertEquals(new RecordStats(7, 1, 91, inner.stats().sum(), 1, 91), inner.stats());

    // cut by a range: the records' points within it
    RecordSummary cut = summary(new TimeRange(T0 + 3_000, T0 + 8_000), evens, odds);
    assertEquals(new RecordStats(6, 31, 81, cut.stats().sum(), 31, 81), cut.stats());
    assertEquals(T0 + 3_000, cut.firstMillis());
    assertEquals(T0 + 8_000, cut.lastMillis());
  }

  /** Whole records inside the range answer from their stored statistics: their blobs' values are not read. */
  @Test
  void wholeRecordsAnswerFromTheirStatistics() {
    Points evens = new Points();
    Points odds = new Points();
    for (int s = 0; s < 10; s++) {
      (s % 2 == 0 ? evens : odds).add((T0 + s * 1000L) * 1_000_000L, s);
    }
    // statistics that the points do not give: the summary must be taken from them
    RecordSummary summary = summary(TimeRange.ALL, record("a", 1, evens, new RecordStats(5, -7, 700, 1, -1, -2)),
        record("b", 2, odds, new RecordStats(5, 3, 9, 2, -3, -4)));
    assertEquals(new RecordStats(10, -7, 700, 3, -1, -4), summary.stats());
  }

  @Test
  void aTimestampInTwoRecordsHasTheSeriesJoined() {
    assertNull(summary(TimeRange.ALL, record("a", 1, 0, 2, 4, 6), record("b", 2, 1, 4, 5)), "4 s is in both");
    // outside the range the shared timestamp does not count
    assertNotNull(summary(new TimeRange(T0 + 5_000, T0 + 6_000), record("a", 1, 0, 2, 4, 6), record("b", 2, 1, 4, 5)));
    // between the first and last shared ones a range may hold others: joined
    assertNull(summary(new TimeRange(T0 + 4_000, T0 + 6_000), record("c", 1, 0, 2, 4, 6, 8), record("d", 2, 2, 5, 8)));
    assertNotNull(summary(new TimeRange(T0 + 9_000, T0 + 9_000), record("c", 1, 0, 2, 4, 6, 8, 9),
        record("d", 2, 2, 5, 8)), "after the last shared one");
  }

  @Test
  void firstPointsInOneMillisecondHaveTheSeriesJoined() {
    Points a = new Points();
    a.add(T0 * 1_000_000L + 100, 1);
    a.add((T0 + 5_000) * 1_000_000L, 2);
    Points b = new Points();
    b.add(T0 * 1_000_000L + 200, 3);
    b.add((T0 + 3_000) * 1_000_000L, 4);
    assertNull(summary(TimeRange.ALL, record("a", 1, a, RecordStats.of(a)), record("b", 2, b, RecordStats.of(b))));
  }

  /** The verdict on two records is kept by their ids: asked again, their blobs are not read. */
  @Test
  void aPairsVerdictIsKeptByTheRecordsIds() {
    StoredChunk evens = record("k", 1, 0, 2, 4, 6, 8);
    StoredChunk odds = record("l", 2, 1, 3, 5, 7, 9);
    RecordSummary first = summary(TimeRange.ALL, evens, odds);
    assertNotNull(first);
    RecordSummary again = summary(TimeRange.ALL, unreadable(evens), unreadable(odds));
    assertEquals(first, again);
  }

  private static StoredChunk unreadable(StoredChunk chunk) {
    return new StoredChunk(chunk.id(), 0, chunk.version(), new byte[] {9, 9, 9}, chunk.startMillis(), chunk.endMillis(),
        chunk.stats(), null);
  }

  @Test
  void recordsApartAreNotOverlapping() {
    assertEquals(false, RecordSummary.Parts.of(List.of(record("a", 1, 0, 1, 2), record("b", 2, 3, 4)), List.of())
        .overlapping());
  }

  private static double sum(int... seconds) {
    double sum = 0;
    for (int second : seconds) {
      sum += second * 10 + 1;
    }
    return sum;
  }
}
