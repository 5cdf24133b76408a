package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class SampleMovingAverageTest {

  @Test
  void averagesTheLastNSamplesFromTheNthPointOn() {
    Points series = perSecond(1, 3, 5, 7, 10);
    assertEquals(atSeconds(2, 3, 3, 5, 4, 22 / 3.0), transform("smovavg:3", series));
  }

  @Test
  void oneSampleIsTheSeriesItself() {
    Points series = perSecond(1, 3, 5);
    assertEquals(series, transform("smovavg:1", series));
  }

  @Test
  void shorterSeriesGivesEmptyResult() {
    assertEquals(new Points(), transform("smovavg:4", perSecond(1, 2, 3)));
  }
}
