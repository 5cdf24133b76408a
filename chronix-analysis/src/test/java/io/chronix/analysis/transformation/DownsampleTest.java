package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class DownsampleTest {

  // minute buckets [0,60) [60,120) (empty: [120,180)) [180,240)
  private final Points series = atSeconds(5, 1, 30, 3, 59, 2, 60, 10, 61, 20, 200, 7);

  @Test
  void oneAggregatedPointPerNonEmptyEpochAlignedBucket() {
    assertEquals(atSeconds(0, 6, 60, 30, 180, 7), transform("downsample:1,minutes,sum", series));
    assertEquals(atSeconds(0, 3, 60, 20, 180, 7), transform("downsample:1,minutes,max", series));
    assertEquals(atSeconds(0, 2, 60, 15, 180, 7), transform("downsample:60,s,AVG", series));
    assertEquals(atSeconds(0, 3, 60, 2, 180, 1), transform("downsample:1,m,count", series));
    assertEquals(atSeconds(0, 1, 60, 10, 180, 7), transform("downsample:1,m,first", series));
  }

  @Test
  void bucketsAlignToTheEpochEvenForNegativeTimestamps() {
    Points before = Points.wrap(new long[] {-90 * SECOND, -30 * SECOND}, new double[] {1, 2}, 2);
    assertEquals(atSeconds(-120, 1, -60, 2), transform("downsample:1,minute,min", before));
  }

  @Test
  void unknownAggregationIsRejected() {
    FunctionQueryException error = assertThrows(FunctionQueryException.class,
        () -> Functions.parse("downsample:1,minutes,median"));
    assertTrue(error.getMessage().startsWith("downsample: unknown aggregation 'median'"),
        error.getMessage());
  }
}
