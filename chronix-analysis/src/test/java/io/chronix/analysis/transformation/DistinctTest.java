package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DistinctTest {

  @Test
  void keepsTheFirstPointOfEachValue() {
    assertEquals(atSeconds(0, 3, 1, 1, 3, 2),
        transform("distinct", perSecond(3, 1, 3, 2, 1, 2, 3)));
  }

  @Test
  void comparesBits() {
    assertEquals(atSeconds(0, Double.NaN, 1, 0.0, 3, -0.0),
        transform("distinct", perSecond(Double.NaN, 0.0, Double.NaN, -0.0)));
  }
}
