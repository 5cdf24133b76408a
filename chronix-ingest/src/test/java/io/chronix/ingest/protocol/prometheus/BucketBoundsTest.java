package io.chronix.ingest.protocol.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BucketBoundsTest {

  @Test
  void nonPositiveSchemasArePowersOfTwo() {
    assertEquals(1.0, BucketBounds.upper(0, 0));
    assertEquals(8.0, BucketBounds.upper(0, 3));
    assertEquals(0.25, BucketBounds.upper(0, -2));
    assertEquals(16.0, BucketBounds.upper(-1, 2), "schema -1: base 4");
    assertEquals(65536.0, BucketBounds.upper(-4, 1), "schema -4: base 2^16");
    assertEquals(0.5, BucketBounds.lower(0, 0));
  }

  @Test
  void positiveSchemasAreCorrectlyRoundedRoots() {
    assertEquals(1.0905077326652577, BucketBounds.upper(3, 1));
    assertEquals(1.189207115002721, BucketBounds.upper(3, 2));
    assertEquals(Math.sqrt(2), BucketBounds.upper(1, 1));
    assertEquals(2.0, BucketBounds.upper(3, 8));
    assertEquals(1.0, BucketBounds.upper(8, 0));
    for (int schema = 1; schema <= BucketBounds.MAX_SCHEMA; schema++) {
      int perOctave = 1 << schema;
      for (int index = -2 * perOctave; index <= 2 * perOctave; index++) {
        double expected = Math.pow(2, (double) index / perOctave);
        double actual = BucketBounds.upper(schema, index);
        assertTrue(Math.abs(actual - expected) <= Math.ulp(expected), schema + "/" + index + ": " + actual + " vs " + expected);
      }
    }
  }

  @Test
  void theLastFiniteBucketEndsAtTheLargestDouble() {
    assertEquals(Double.MAX_VALUE, BucketBounds.upper(0, 1024));
    assertEquals(Double.POSITIVE_INFINITY, BucketBounds.upper(0, 1025));
    assertEquals(Double.MAX_VALUE, BucketBounds.upper(2, 1024 * 4));
    assertEquals(Double.POSITIVE_INFINITY, BucketBounds.upper(2, 1024 * 4 + 1));
  }
}
