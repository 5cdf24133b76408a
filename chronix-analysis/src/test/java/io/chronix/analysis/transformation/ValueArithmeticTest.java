package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class ValueArithmeticTest {

  private final Points series = perSecond(1, -2, 0.5, 10);

  @Test
  void scaleMultipliesEveryValue() {
    assertEquals(perSecond(4, -8, 2, 40), transform("scale:4", series));
    assertEquals(perSecond(-0.5, 1, -0.25, -5), transform("scale:-0.5", series));
  }

  @Test
  void divideDivides() {
    assertEquals(perSecond(1 / 3.0, -2 / 3.0, 0.5 / 3, 10 / 3.0), transform("divide:3", series));
  }

  @Test
  void addAndSubShiftValues() {
    assertEquals(perSecond(-4, -7, -4.5, 5), transform("add:-5", series));
    assertEquals(perSecond(-1.5, -4.5, -2, 7.5), transform("sub:2.5", series));
  }

  @Test
  void divisionByZeroIsRejectedWhenParsing() {
    FunctionQueryException error =
        assertThrows(FunctionQueryException.class, () -> Functions.parse("divide:0"));
    assertTrue(error.getMessage().startsWith("divide:"), error.getMessage());
  }

  @Test
  void emptySeriesStaysEmpty() {
    assertEquals(new Points(), transform("scale:2", new Points()));
  }
}
