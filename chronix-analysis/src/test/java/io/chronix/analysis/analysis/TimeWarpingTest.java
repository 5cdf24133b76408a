package io.chronix.analysis.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimeWarpingTest {

  /** Textbook DTW over the full matrix, no windows, no recursion. */
  private static double referenceDtw(double[] x, double[] y) {
    double[][] d = new double[x.length + 1][y.length + 1];
    for (double[] row : d) {
      Arrays.fill(row, Double.POSITIVE_INFINITY);
    }
    d[0][0] = 0;
    for (int i = 1; i <= x.length; i++) {
      for (int j = 1; j <= y.length; j++) {
        d[i][j] = Math.abs(x[i - 1] - y[j - 1])
            + Math.min(d[i - 1][j - 1], Math.min(d[i - 1][j], d[i][j - 1]));
      }
    }
    return d[x.length][y.length];
  }

  private static double[] randomWalk(Random random, int length) {
    double[] values = new double[length];
    for (int i = 1; i < length; i++) {
      values[i] = values[i - 1] + random.nextGaussian();
    }
    return values;
  }

  private static double[] sine(int length, double phase) {
    double[] values = new double[length];
    for (int i = 0; i < length; i++) {
      values[i] = Math.sin(i * 2 * Math.PI / 50 + phase) * 10;
    }
    return values;
  }

  /** Checks that the path is a warp path and that its distance is the cost along it. */
  private static void assertValidPath(WarpPath path, double[] x, double[] y) {
    int length = path.length();
    assertEquals(0, path.rows()[0]);
    assertEquals(0, path.columns()[0]);
    assertEquals(x.length - 1, path.rows()[length - 1]);
    assertEquals(y.length - 1, path.columns()[length - 1]);
    double cost = Math.abs(x[0] - y[0]);
    for (int k = 1; k < length; k++) {
      int di = path.rows()[k] - path.rows()[k - 1];
      int dj = path.columns()[k] - path.columns()[k - 1];
      assertTrue(di >= 0 && di <= 1 && dj >= 0 && dj <= 1 && di + dj > 0, "step " + k);
      cost += Math.abs(x[path.rows()[k]] - y[path.columns()[k]]);
    }
    assertEquals(cost, path.distance(), 1e-9);
  }

  @Test
  void exactDtwMatchesTheReference() {
    Random random = new Random(1);
    for (int trial = 0; trial < 20; trial++) {
      double[] x = randomWalk(random, 1 + random.nextInt(40));
      double[] y = randomWalk(random, 1 + random.nextInt(40));
      WarpPath path = TimeWarping.exact(x, y);
      assertEquals(referenceDtw(x, y), path.distance(), 1e-9);
      assertValidPath(path, x, y);
    }
  }

  @Test
  void fastDtwWithALargeRadiusEqualsExactDtw() {
    Random random = new Random(2);
    double[] x = randomWalk(random, 120);
    double[] y = randomWalk(random, 97);
    assertEquals(referenceDtw(x, y), TimeWarping.fast(x, y, 120).distance(), 1e-9);
  }

  @Test
  void fastDtwFindsAValidPathNeverShorterThanTheOptimum() {
    Random random = new Random(3);
    for (int radius : new int[] {0, 1, 3, 10}) {
      double[] x = randomWalk(random, 300);
      double[] y = randomWalk(random, 257);
      WarpPath path = TimeWarping.fast(x, y, radius);
      assertValidPath(path, x, y);
      assertTrue(path.distance() >= referenceDtw(x, y) - 1e-9, "radius " + radius);
    }
  }

  @Test
  void fastDtwIsCloseToExactOnSmoothSeries() {
    double[] x = sine(400, 0);
    double[] y = sine(380, 0.7);
    double exact = referenceDtw(x, y);
    double fast = TimeWarping.fast(x, y, 10).distance();
    assertTrue(fast >= exact - 1e-9 && fast <= exact * 1.05 + 1e-9, fast + " vs " + exact);
  }

  @Test
  void identicalSeriesHaveDistanceZeroAlongTheDiagonal() {
    double[] x = sine(256, 0);
    WarpPath path = TimeWarping.fast(x, x.clone(), 2);
    assertEquals(0, path.distance());
    assertEquals(256, path.length());
  }

  @Test
  void coarseningAveragesPairs() {
    assertArrayEquals(new double[] {1.5, 3.5, 5}, TimeWarping.halve(new double[] {1, 2, 3, 4, 5}));
  }
}
