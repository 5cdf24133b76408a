package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The limit on a query's decoded points (a count, or a share of the heap) and how a record counts against it. */
class DecodedPointsLimitTest {

  @Test
  void autoIsAPointForEvery64BytesOfHeap() {
    assertEquals(6_291_456, DecodedPointsLimit.ofHeap(384L << 20), "the launcher's default heap");
    assertEquals(DecodedPointsLimit.ofHeap(Runtime.getRuntime().maxMemory()), DecodedPointsLimit.parse("auto"));
    assertEquals(DecodedPointsLimit.parse("auto"), DecodedPointsLimit.parse(" AUTO "));
    assertEquals(50_000_000L, DecodedPointsLimit.ofHeap(Long.MAX_VALUE), "a JVM without a heap limit");
  }

  @Test
  void aCountAsGivenAndAnythingElseRefusedWithTheSetting() {
    assertEquals(1, DecodedPointsLimit.parse("1"));
    assertEquals(50_000_000L, DecodedPointsLimit.parse("50000000"));
    for (String bad : new String[] {"0", "-1", "5M", "", "1e6"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DecodedPointsLimit.parse(bad));
      assertTrue(e.getMessage().contains("maxDecodedPoints") && e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void aRecordTheRangeCutsCountsItsShareOfPoints() {
    TimeRange lastTenMinutes = new TimeRange(3_000_000, 3_600_000);
    // 240 points over an hour, the range its last 10 minutes: a sixth of them, and one more
    assertEquals(41, SeriesCollector.pointsWithin(240, 0, 3_600_000, lastTenMinutes));
    assertEquals(240, SeriesCollector.pointsWithin(240, 3_000_000, 3_600_000, lastTenMinutes), "wholly inside");
    assertEquals(240, SeriesCollector.pointsWithin(240, 0, 3_600_000, TimeRange.ALL));
    assertEquals(240, SeriesCollector.pointsWithin(240, 0, 7_200_000, new TimeRange(-5, 8_000_000)));
    assertEquals(1, SeriesCollector.pointsWithin(240, 0, 3_600_000, new TimeRange(3_600_000, 4_000_000)),
        "a range that meets the record's last millisecond");
    assertEquals(1, SeriesCollector.pointsWithin(1, 5, 5, new TimeRange(0, 10)), "a record of one instant");
    assertEquals(240, SeriesCollector.pointsWithin(240, 0, 3_600_000, new TimeRange(1, 3_599_999)),
        "never more than the record holds");
    assertEquals(2, SeriesCollector.pointsWithin(240, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, new TimeRange(0, 10)),
        "a span past a long's range");
  }
}
