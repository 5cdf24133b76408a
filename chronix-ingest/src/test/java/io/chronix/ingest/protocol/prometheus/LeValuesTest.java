package io.chronix.ingest.protocol.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LeValuesTest {

  @Test
  void formatsLikePrometheusNormalizedLeLabels() {
    assertEquals("1.0", LeValues.format(1));
    assertEquals("0.25", LeValues.format(0.25));
    assertEquals("0.005", LeValues.format(0.005));
    assertEquals("0.0001", LeValues.format(0.0001));
    assertEquals("1e-05", LeValues.format(0.00001));
    assertEquals("100000.0", LeValues.format(100_000));
    assertEquals("1e+06", LeValues.format(1_000_000));
    assertEquals("1.234567e+06", LeValues.format(1_234_567));
    assertEquals("2.5e+300", LeValues.format(2.5e300));
    assertEquals("-1.0", LeValues.format(-1));
    assertEquals("-0.75", LeValues.format(-0.75));
    assertEquals("0.0", LeValues.format(0));
    assertEquals("0.0", LeValues.format(-0.0));
    assertEquals("+Inf", LeValues.format(Double.POSITIVE_INFINITY));
    assertEquals("-Inf", LeValues.format(Double.NEGATIVE_INFINITY));
    assertEquals("0.30000000000000004", LeValues.format(0.1 + 0.2));
    assertEquals("1.7976931348623157e+308", LeValues.format(Double.MAX_VALUE));
    assertEquals("5e-324", LeValues.format(Double.MIN_VALUE));
  }

  @Test
  void shortestDigitsReadBackAsTheSameDouble() {
    double[] values = {1.0905077326652577, Math.PI, 1 / 3.0, 123.456, 9007199254740993.0, 2e23, 0.1};
    for (double value : values) {
      String text = LeValues.cached(value);
      assertEquals(value, Double.parseDouble(text.replace("+Inf", "Infinity")), text);
      assertEquals(text, LeValues.cached(value));
    }
  }
}
