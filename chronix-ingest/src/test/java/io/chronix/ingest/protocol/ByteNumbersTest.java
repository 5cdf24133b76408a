package io.chronix.ingest.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The byte parsers' fast paths must give the JDK's results bit for bit, errors included. */
class ByteNumbersTest {

  private static double parseDouble(String text) {
    byte[] bytes = ("x" + text + "y").getBytes(StandardCharsets.US_ASCII); // offsets inside a larger body
    return ByteNumbers.parseDouble(bytes, 1, bytes.length - 1);
  }

  private static long parseLong(String text) {
    byte[] bytes = ("x" + text + "y").getBytes(StandardCharsets.US_ASCII);
    return ByteNumbers.parseLong(bytes, 1, bytes.length - 1);
  }

  @Test
  void decimalsAsTheJdkReadsThem() {
    for (String text : new String[] {"0", "-0", "-0.0", "+1.5", "97.5", "0.001", "1e3", "1.5E-3", "123456789012345",
        "1234567890123456", "0.30000000000000004", "9007199254740993", "1e22", "1e23", "4.9e-324", "1e-400",
        "1.7976931348623157e308", "1e309", "000123.4500", "0.000000000000000000000000001", "12345.678e-20",
        "3.14159", "100", "-2.5e+10"}) {
      assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)), Double.doubleToRawLongBits(parseDouble(text)),
          text);
    }
  }

  @Test
  void randomDecimalsAsTheJdkReadsThem() {
    Random random = new Random(7);
    for (int n = 0; n < 200_000; n++) {
      StringBuilder text = new StringBuilder();
      if (random.nextInt(4) == 0) {
        text.append(random.nextBoolean() ? '-' : '+');
      }
      int integerDigits = random.nextInt(12);
      for (int i = 0; i < integerDigits; i++) {
        text.append((char) ('0' + random.nextInt(10)));
      }
      int fractionDigits = random.nextInt(integerDigits == 0 ? 10 : 12) + (integerDigits == 0 ? 1 : 0);
      if (fractionDigits > 0) {
        text.append('.');
        for (int i = 0; i < fractionDigits; i++) {
          text.append((char) ('0' + random.nextInt(10)));
        }
      }
      if (random.nextInt(5) == 0) {
        text.append(random.nextBoolean() ? 'e' : 'E').append(random.nextInt(60) - 30);
      }
      String value = text.toString();
      assertEquals(Double.doubleToRawLongBits(Double.parseDouble(value)),
          Double.doubleToRawLongBits(parseDouble(value)), value);
    }
  }

  /** The line protocol's float syntax is checked where it is read: whatever lies outside it is refused. */
  @Test
  void anythingButADecimalIsRefused() {
    for (String text : new String[] {"", "-", "+", ".", "-.", "e5", ".e5", "1e", "1e+", "1E-", "1.2.3", "1..2", "1e5.0",
        "1e5e5", "NaN", "nan", "Infinity", "-inf", "0x1p3", "1f", "1d", "1.5x", " 1", "1 ", "--1", "+-1", "1e--5",
        "1_000", "1,5"}) {
      assertThrows(NumberFormatException.class, () -> parseDouble(text), text);
    }
    for (String text : new String[] {"+.5", "5.", "-0.", ".5e3", "5.E-3", "007", "1e0005", "1e400000", "-1e-400000",
        "12345678901234567890123.5e-3"}) {
      assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)), Double.doubleToRawLongBits(parseDouble(text)),
          text);
    }
  }

  @Test
  void longsAsTheJdkReadsThem() {
    for (String text : new String[] {"0", "-0", "+7", "1439407383389000000", "-1439407383389000000",
        "9223372036854775807", "-9223372036854775808", "999999999999999999", "9223372036854775800",
        "-9223372036854775807", "1000000000000000000", "0000000000000000001"}) {
      assertEquals(Long.parseLong(text), parseLong(text), text);
    }
    for (String text : new String[] {"", "-", "+", "9223372036854775808", "-9223372036854775809", "9999999999999999999",
        "12345678901234567a", "123456789012345678a", "12a", "1.5", " 1", "--1"}) {
      assertThrows(NumberFormatException.class, () -> parseLong(text), text);
      assertThrows(NumberFormatException.class, () -> Long.parseLong(text), text);
    }
  }
}
