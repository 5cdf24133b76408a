package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class TimeShiftTest {

  @Test
  void shiftsEveryTimestampByTheGivenAmount() {
    Points series = perSecond(1, 2, 3);
    Points shifted = transform("timeshift:-10,days", series);
    long tenDays = 10 * 86_400 * SECOND;
    for (int i = 0; i < series.size(); i++) {
      assertEquals(series.timestamp(i) - tenDays, shifted.timestamp(i));
      assertEquals(series.value(i), shifted.value(i));
    }
    assertEquals(3 * 3_600 * SECOND + SECOND, transform("timeshift:3,h", series).timestamp(1));
    assertEquals(1_500_000_000L, transform("timeshift:1.5,SECONDS", series).timestamp(0));
  }
}
