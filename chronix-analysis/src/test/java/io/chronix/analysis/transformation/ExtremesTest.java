package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class ExtremesTest {

  private final Points series = perSecond(5, 9, 1, 9, 7, Double.NaN, 1, 3);

  @Test
  void topReturnsTheLargestInTimeOrder() {
    assertEquals(atSeconds(1, 9, 3, 9, 4, 7), transform("top:3", series));
  }

  @Test
  void bottomReturnsTheSmallestInTimeOrder() {
    assertEquals(atSeconds(2, 1, 6, 1, 7, 3), transform("bottom:3", series));
  }

  @Test
  void tiesPreferTheEarlierPoint() {
    assertEquals(atSeconds(1, 9), transform("top:1", series));
    assertEquals(atSeconds(2, 1), transform("bottom:1", series));
  }

  @Test
  void moreThanAvailableReturnsAllButNaN() {
    Points all = transform("top:100", series);
    assertEquals(7, all.size());
    assertEquals(0, all.timestamp(0));
  }
}
