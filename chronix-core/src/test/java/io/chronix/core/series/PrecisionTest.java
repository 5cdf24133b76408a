package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PrecisionTest {

  /** Every unit overflows where Math.multiplyExact does, at both ends and around them, and multiplies the same elsewhere. */
  @Test
  void toNanosOverflowsExactlyWhereTheProductLeavesALong() {
    Random random = new Random(29);
    for (Precision precision : Precision.values()) {
      long nanos = precision.toNanos(1);
      List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE));
      for (long edge : new long[] {Long.MAX_VALUE / nanos, Long.MIN_VALUE / nanos}) {
        for (long d = -2; d <= 2; d++) {
          values.add(edge + d);
        }
      }
      for (int i = 0; i < 1_000; i++) {
        values.add(random.nextLong() >> random.nextInt(64));
      }
      for (long value : values) {
        Long expected;
        try {
          expected = Math.multiplyExact(value, nanos);
        } catch (ArithmeticException overflow) {
          expected = null;
        }
        if (expected == null) {
          assertThrows(ArithmeticException.class, () -> precision.toNanos(value), precision + " " + value);
        } else {
          assertEquals(expected, precision.toNanos(value), precision + " " + value);
        }
      }
    }
  }
}
