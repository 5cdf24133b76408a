package io.chronix.analysis.aggregation;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.TestSeries.perSecond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.Aggregation;
import io.chronix.analysis.Functions;
import io.chronix.core.series.Points;
import java.util.List;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AggregationsTest {

  private static final double[] VALUES = {4, -2, 7.5, 3, 3, 10, 0.25, 6};
  private static final Points SERIES = perSecond(VALUES);

  private static double aggregate(String spec, Points series) {
    return ((Aggregation) Functions.parse(spec)).apply(series);
  }

  @Test
  void minMaxSumAvgCountByHand() {
    assertEquals(-2, aggregate("min", SERIES));
    assertEquals(10, aggregate("max", SERIES));
    assertEquals(31.75, aggregate("sum", SERIES), 1e-12);
    assertEquals(31.75 / 8, aggregate("avg", SERIES), 1e-12);
    assertEquals(8, aggregate("count", SERIES));
  }

  @Test
  void firstLastRangeDiffByHand() {
    assertEquals(4, aggregate("first", SERIES));
    assertEquals(6, aggregate("last", SERIES));
    assertEquals(12, aggregate("range", SERIES));
    assertEquals(2, aggregate("sdiff", SERIES));
    assertEquals(2, aggregate("diff", SERIES));
    Points falling = perSecond(5, 9, 1);
    assertEquals(-4, aggregate("sdiff", falling));
    assertEquals(4, aggregate("diff", falling));
  }

  @Test
  void devIsTheBiasCorrectedSampleStandardDeviation() {
    assertEquals(new StandardDeviation(true).evaluate(VALUES), aggregate("dev", SERIES), 1e-12);
    // by hand: values 1, 2, 3, 4 have mean 2.5 and squared deviations summing to 5
    assertEquals(Math.sqrt(5.0 / 3), aggregate("dev", perSecond(1, 2, 3, 4)), 1e-12);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0})
  void percentileMatchesCommonsMathDefaultEstimation(double quantile) {
    double expected = new Percentile().evaluate(VALUES, quantile * 100);
    assertEquals(expected, aggregate("p:" + quantile, SERIES));
  }

  @Test
  void percentileByHand() {
    // Commons Math's default: position p*(n+1), interpolated; median of 1..4 is 2.5
    assertEquals(2.5, aggregate("p:0.5", perSecond(4, 1, 3, 2)));
    assertEquals(4, aggregate("p:1", perSecond(4, 1, 3, 2)));
  }

  @Test
  void integralIsTrapezoidalInSeconds() {
    // 0..2 s rising 0 -> 2 (area 2), then 2 s flat at 2 (area 4), then 1 s falling to 0 (area 1)
    Points series = atSeconds(0, 0, 2, 2, 4, 2, 5, 0);
    assertEquals(7, aggregate("integral", series), 1e-12);
    // millisecond spacing: a constant 3 over 0.5 s
    Points fine = Points.wrap(new long[] {0, SECOND / 2}, new double[] {3, 3}, 2);
    assertEquals(1.5, aggregate("integral", fine), 1e-12);
    assertEquals(0, aggregate("integral", perSecond(42)));
  }

  @Test
  void emptySeriesGivesNaNExceptCount() {
    for (String name : List.of("min", "max", "avg", "sum", "first", "last", "dev", "range",
        "diff", "sdiff", "integral", "p:0.5")) {
      assertTrue(Double.isNaN(aggregate(name, new Points())), name);
    }
    assertEquals(0, aggregate("count", new Points()));
  }

  @Test
  void nanValuesAreIgnoredByStatisticsButCounted() {
    Points withGaps = perSecond(Double.NaN, 4, Double.NaN, -2, 7, Double.NaN);
    double[] present = {4, -2, 7};
    assertEquals(-2, aggregate("min", withGaps));
    assertEquals(7, aggregate("max", withGaps));
    assertEquals(9, aggregate("sum", withGaps));
    assertEquals(3, aggregate("avg", withGaps));
    assertEquals(9, aggregate("range", withGaps));
    assertEquals(new StandardDeviation().evaluate(present), aggregate("dev", withGaps), 1e-12);
    assertEquals(new Percentile().evaluate(present, 50), aggregate("p:0.5", withGaps));
    assertEquals(6, aggregate("count", withGaps));
    assertTrue(Double.isNaN(aggregate("max", perSecond(Double.NaN, Double.NaN))));
  }

  @Test
  void aggregationsKnowTheirNameAndArguments() {
    Aggregation percentile = (Aggregation) Functions.parse("P : 0.99");
    assertEquals("p", percentile.name());
    assertEquals(List.of("0.99"), percentile.arguments());
    assertEquals("max", Functions.parse("MAX").name());
    assertEquals(List.of(), Functions.parse("max").arguments());
  }
}
