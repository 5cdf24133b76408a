package io.chronix.analysis.promql.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GoFloatsTest {

  @Test
  void printsAsGoDoesWithoutExponent() {
    assertEquals("81.44166666666666", GoFloats.format(81.44166666666666));
    assertEquals("-0.5", GoFloats.format(-0.5));
    assertEquals("0.001", GoFloats.format(0.001));
    assertEquals("0.00001", GoFloats.format(1e-5));
    assertEquals("12345678.9", GoFloats.format(12345678.9));
    assertEquals("150000000000000000000", GoFloats.format(1.5e20));
    assertEquals("1000000000000000", GoFloats.format(1e15));
    assertEquals("42", GoFloats.format(42.0));
    assertEquals("-0", GoFloats.format(-0.0));
    assertEquals("NaN", GoFloats.format(Double.NaN));
    assertEquals("+Inf", GoFloats.format(Double.POSITIVE_INFINITY));
    assertEquals("-Inf", GoFloats.format(Double.NEGATIVE_INFINITY));
  }

  @Test
  void everyFormIsThePlainFormOfJavasShortestDigits() {
    Random random = new Random(3);
    for (int i = 0; i < 100_000; i++) {
      double value = Double.longBitsToDouble(random.nextLong());
      if (Double.isNaN(value) || Double.isInfinite(value) || value == Math.rint(value)) {
        continue;
      }
      String expected = new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
      assertEquals(expected, GoFloats.format(value), Double.toString(value));
      assertEquals(value, Double.parseDouble(GoFloats.format(value)));
    }
    for (int i = 0; i < 100_000; i++) { // the magnitudes samples have
      double value = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 6);
      String expected = new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
      assertEquals(expected, GoFloats.format(value), Double.toString(value));
    }
    for (int i = 0; i < 300_000; i++) { // decimals of a few digits, as gauges are, up to and past the short form's limit
      int k = random.nextInt(8);
      double value = (random.nextLong() % (long) Math.pow(10, 2 + random.nextInt(13))) / Math.pow(10, k);
      String expected = new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
      assertEquals(expected, GoFloats.format(value), Double.toString(value));
    }
  }

  /** Whole numbers as Go prints them, from single digits to past 10^15 (where the plain form takes over). */
  @Test
  void wholeNumbersAsTheirDigits() {
    Random random = new Random(4);
    for (int i = 0; i < 200_000; i++) {
      long whole = random.nextLong() % (long) Math.pow(10, 1 + random.nextInt(17));
      double value = whole;
      String expected = whole == 0 ? "0" : new BigDecimal(value).toPlainString();
      assertEquals(expected, GoFloats.format(value), Long.toString(whole));
    }
  }

  /** The short form is Java's shortest digits' plain form wherever it answers, and reads back. */
  @Test
  void shortDecimalsReadBackAsTheirValue() {
    Random random = new Random(9);
    int answered = 0;
    for (int i = 0; i < 300_000; i++) {
      double value = random.nextBoolean() ? (random.nextInt(2_000_000) - 1_000_000) / Math.pow(10, random.nextInt(7))
          : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(14) - 4);
      String decimal = shortDecimal(value);
      if (decimal == null) {
        continue;
      }
      answered++;
      assertEquals(value, Double.parseDouble(decimal), decimal);
      assertEquals(new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString(), decimal);
    }
    assertEquals(true, answered > 100_000, "short forms: " + answered);
    assertEquals("0.3", shortDecimal(0.3));
    assertEquals("-41.25", shortDecimal(-41.25));
    assertEquals("0.000001", shortDecimal(1e-6));
    assertEquals(null, shortDecimal(0.1 + 0.2), "0.30000000000000004 has more digits");
    assertEquals(null, shortDecimal(3e9 + 0.5), "past the limit");
  }

  /** The short form of a value with a fraction, or null where writeShort leaves it to Java's text. */
  private static String shortDecimal(double value) {
    if (value == Math.rint(value)) {
      return null;
    }
    byte[] text = new byte[GoFloats.SHORT_CHARS];
    int end = GoFloats.writeShort(value, text, 0);
    return end < 0 ? null : new String(text, 0, end, java.nio.charset.StandardCharsets.US_ASCII);
  }
}
