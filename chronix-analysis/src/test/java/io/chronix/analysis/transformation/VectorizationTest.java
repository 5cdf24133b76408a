package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Points;
import java.util.Random;
import org.junit.jupiter.api.Test;

class VectorizationTest {

  @Test
  void pointsOnAStraightLineAreDropped() {
    Points line = perSecond(0, 1, 2, 3, 4, 5);
    Points expected = new Points();
    expected.add(0, 0);
    expected.add(5_000_000_000L, 5);
    assertEquals(expected, transform("vector:0.01", line));
  }

  @Test
  void cornersAreKept() {
    // up to a peak at 3 s, then down: the peak is a corner, the rest is straight
    Points tent = perSecond(0, 1, 2, 3, 2, 1, 0);
    Points vector = transform("vector:0.1", tent);
    assertEquals(3, vector.size());
    assertEquals(3, vector.value(1));
    assertEquals(3_000_000_000L, vector.timestamp(1));
  }

  @Test
  void toleranceDecidesAboutSmallWiggles() {
    Points wiggle = perSecond(0, 0.3, 0, 0.3, 0);
    assertEquals(2, transform("vector:0.5", wiggle).size());
    assertEquals(wiggle, transform("vector:0.1", wiggle));
  }

  @Test
  void firstAndLastAreAlwaysKept() {
    assertEquals(perSecond(7), transform("vector:100", perSecond(7)));
    assertEquals(perSecond(7, 9), transform("vector:100", perSecond(7, 9)));
    Points wild = perSecond(1, 50, -50, 2);
    Points flat = transform("vector:1000", wild);
    assertEquals(2, flat.size());
    assertEquals(wild.timestamp(0), flat.timestamp(0));
    assertEquals(wild.timestamp(3), flat.timestamp(1));
  }

  @Test
  void everyDroppedPointLiesWithinToleranceOfTheKeptPolyline() {
    Random random = new Random(7);
    double[] values = new double[500];
    for (int i = 1; i < values.length; i++) {
      values[i] = values[i - 1] + random.nextGaussian() * 0.2 + Math.sin(i / 30.0) * 0.1;
    }
    Points series = perSecond(values);
    double tolerance = 0.5;
    Points vector = transform("vector:" + tolerance, series);
    assertTrue(vector.size() < series.size() / 2, "vectorization should thin out " + vector.size());
    for (int i = 0; i < series.size(); i++) {
      double interpolated = interpolate(vector, series.timestamp(i));
      assertTrue(Math.abs(interpolated - series.value(i)) <= tolerance + 1e-9,
          "point " + i + " is " + Math.abs(interpolated - series.value(i)) + " away");
    }
  }

  @Test
  void greedyRuleMatchesAReferenceImplementation() {
    Random random = new Random(11);
    Points series = new Points();
    long t = 0;
    for (int i = 0; i < 300; i++) {
      t += 1 + random.nextInt(5_000);
      series.add(t, random.nextGaussian() * 2);
    }
    assertEquals(reference(series, 1.0), transform("vector:1", series));
  }

  /** The documented rule, checked naively against every dropped point. */
  private static Points reference(Points series, double tolerance) {
    Points kept = new Points();
    kept.add(series.timestamp(0), series.value(0));
    int anchor = 0;
    for (int i = 1; i < series.size() - 1; i++) {
      boolean droppable = true;
      for (int j = anchor + 1; j <= i; j++) {
        double line = series.value(anchor) + (series.value(i + 1) - series.value(anchor))
            * (series.timestamp(j) - series.timestamp(anchor))
            / (series.timestamp(i + 1) - series.timestamp(anchor));
        droppable &= Math.abs(line - series.value(j)) <= tolerance;
      }
      if (!droppable) {
        kept.add(series.timestamp(i), series.value(i));
        anchor = i;
      }
    }
    kept.add(series.timestamp(series.size() - 1), series.value(series.size() - 1));
    return kept;
  }

  private static double interpolate(Points polyline, long t) {
    for (int k = 1; k < polyline.size(); k++) {
      if (t <= polyline.timestamp(k)) {
        double fraction = (double) (t - polyline.timestamp(k - 1))
            / (polyline.timestamp(k) - polyline.timestamp(k - 1));
        return polyline.value(k - 1) + fraction * (polyline.value(k) - polyline.value(k - 1));
      }
    }
    return polyline.value(polyline.size() - 1);
  }
}
