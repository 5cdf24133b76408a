package io.chronix.analysis.analysis;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.analysis.AnalysisTestSupport.analyse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.AnalysisResult;
import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class FrequencyTest {

  private static final long MINUTE = 60 * SECOND;

  /** Events at the given minute offsets, each a second apart within the minute. */
  private static Points events(int... countsPerMinute) {
    Points points = new Points();
    for (int minute = 0; minute < countsPerMinute.length; minute++) {
      for (int k = 0; k < countsPerMinute[minute]; k++) {
        points.add(minute * MINUTE + k * SECOND, 1);
      }
    }
    return points;
  }

  @Test
  void matchesWhenTheCountJumpsByMoreThanTheThreshold() {
    // windows of one minute: 2, 3, 9, 4 events; largest increase 6
    AnalysisResult result = analyse("frequency:1,5", events(2, 3, 9, 4));
    assertTrue(result.matches());
    assertEquals(6L, result.details().get("maxIncrease"));
    assertEquals(4L, result.details().get("windows"));
    assertFalse(analyse("frequency:1,6", events(2, 3, 9, 4)).matches());
  }

  @Test
  void windowsSpanTheGivenMinutes() {
    // two-minute windows: 2+3, 9+4
    AnalysisResult result = analyse("frequency:2,7", events(2, 3, 9, 4));
    assertTrue(result.matches());
    assertEquals(8L, result.details().get("maxIncrease"));
    assertEquals(2L, result.details().get("windows"));
  }

  @Test
  void aPauseStartsTheNextWindowAtTheNextPoint() {
    // minutes 0 and 1 busy (5, 5), minutes 2..4 silent, minute 5 has 6: no empty windows between
    AnalysisResult result = analyse("frequency:1,1", events(5, 5, 0, 0, 0, 6));
    assertFalse(result.matches());
    assertEquals(3L, result.details().get("windows"));
    assertEquals(1L, result.details().get("maxIncrease"));
  }

  @Test
  void singleWindowNeverMatches() {
    assertFalse(analyse("frequency:10,0", events(50)).matches());
    assertFalse(analyse("frequency:10,0", new Points()).matches());
  }
}
