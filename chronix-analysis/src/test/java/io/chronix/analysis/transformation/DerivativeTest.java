package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class DerivativeTest {

  // a counter sampled every 2 s, then 0.5 s later, with a reset at 4.5 s
  private final Points counter = atSeconds(0, 10, 2, 30, 4, 34, 4.5, 2, 6.5, 12);

  @Test
  void ratePerSecondStampedAtTheLaterPoint() {
    Points expected = atSeconds(2, 10, 4, 2, 4.5, -64, 6.5, 5);
    assertEquals(expected, transform("derivative", counter));
  }

  @Test
  void nonNegativeDerivativeDropsResets() {
    Points expected = atSeconds(2, 10, 4, 2, 6.5, 5);
    assertEquals(expected, transform("nnderivative", counter));
  }

  @Test
  void singlePointHasNoRate() {
    assertEquals(new Points(), transform("derivative", atSeconds(1, 5)));
  }
}
