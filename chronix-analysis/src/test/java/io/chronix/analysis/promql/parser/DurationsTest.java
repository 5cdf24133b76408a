package io.chronix.analysis.promql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP API's duration parameters as Prometheus reads them: Go's float seconds first, then a duration. */
class DurationsTest {

  @ParameterizedTest
  @CsvSource({
      "15, 15000", "0.5, 500", ".5, 500", "5., 5000", "1e1, 10000", "2.5E-1, 250", "-1, -1000", "+2, 2000",
      "0x1p3, 8000", "0X.8P1, 1000", "0, 0",
      // durations, among them the ones Java's own number parser took for seconds with a type suffix
      "1d, 86400000", "2w, 1209600000", "15s, 15000", "1m0s, 60000", "1h30m, 5400000", "100ms, 100", "1y, 31536000000"})
  void readsFloatSecondsThenDurations(String text, long millis) {
    assertEquals(millis, Durations.parseParameterMillis(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " 15", "15 ", "2f", "3D", "NaN", "Inf", "-Inf", "+infinity", "1e400", "0x10",
      "1.5s", "1s1m", "s", "-1d"})
  void refusesWhatPrometheusRefuses(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parseParameterMillis(text));
    assertEquals("cannot parse \"" + text + "\" to a valid duration", e.getMessage());
  }

  @Test
  void refusesSecondsBeyondInt64Nanoseconds() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parseParameterMillis("1e10"));
    assertEquals("cannot parse \"1e10\" to a valid duration. It overflows int64", e.getMessage());
    assertEquals(9_000_000_000_000L, Durations.parseParameterMillis("9e9"));
  }
}
