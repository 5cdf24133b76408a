package io.chronix.analysis.transformation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.analysis.Functions;
import io.chronix.analysis.TestSeries;
import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;

/** Parses and applies a transformation, checking on the way that the input stays untouched. */
final class TransformationTestSupport {

  private TransformationTestSupport() {}

  static Points transform(String spec, Points series) {
    Points before = TestSeries.copy(series);
    Points result = ((Transformation) Functions.parse(spec)).apply(series);
    assertEquals(before, series, spec + " modified its input");
    return result;
  }
}
