package io.chronix.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.transformation.MovingAverage;
import io.chronix.analysis.transformation.TimeShift;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FunctionsTest {

  private static String error(String spec) {
    return assertThrows(FunctionQueryException.class, () -> Functions.parse(spec)).getMessage();
  }

  @Test
  void everyDocumentedFunctionIsRegistered() {
    assertEquals(
        java.util.Set.of("min", "max", "avg", "sum", "count", "first", "last", "dev", "range",
            "diff", "sdiff", "p", "integral", "vector", "scale", "divide", "add", "sub", "top",
            "bottom", "movavg", "smovavg", "derivative", "nnderivative", "timeshift", "distinct",
            "downsample", "trend", "outlier", "frequency", "fastdtw", "sax", "seasonal"),
        Functions.names());
  }

  @Test
  void kindsFollowTheFunction() {
    assertInstanceOf(Aggregation.class, Functions.parse("max"));
    assertInstanceOf(Aggregation.class, Functions.parse("p:0.5"));
    assertInstanceOf(Transformation.class, Functions.parse("movavg:10,minutes"));
    assertInstanceOf(Analysis.class, Functions.parse("trend"));
  }

  @Test
  void namesAndUnitsAreCaseInsensitiveAndWhitespaceIsTrimmed() {
    ChronixFunction movavg = Functions.parse("  MovAvg : 10 , MINUTES ");
    assertEquals("movavg", movavg.name());
    assertEquals(List.of("10", "MINUTES"), movavg.arguments());
    assertEquals(600_000_000_000L, ((MovingAverage) movavg).windowNanos());
    assertEquals(600_000_000_000L,
        ((MovingAverage) Functions.parse("movavg:10,minute")).windowNanos());
    assertEquals(600_000_000_000L, ((MovingAverage) Functions.parse("movavg:10,m")).windowNanos());
    assertEquals(600_000_000_000L,
        ((MovingAverage) Functions.parse("movavg:600000,ms")).windowNanos());
  }

  @ParameterizedTest
  @CsvSource({
      "1,nanos,1", "1,MICROS,1000", "1,millis,1000000", "2,seconds,2000000000",
      "1,h,3600000000000", "1,half_days,43200000000000", "1,d,86400000000000",
      "1,week,604800000000000", "-10,days,-864000000000000", "0.5,s,500000000"})
  void timeUnits(String amount, String unit, long nanos) {
    TimeShift shift = (TimeShift) Functions.parse("timeshift:" + amount + "," + unit);
    assertEquals(nanos, shift.offsetNanos());
  }

  @Test
  void negativeNumbersWork() {
    assertEquals(List.of("-5"), Functions.parse("add:-5").arguments());
    assertEquals(List.of("-10", "days"), Functions.parse("timeshift:-10,days").arguments());
  }

  @Test
  void errorsNameTheFunctionAndTheProblem() {
    assertEquals("unknown function 'maxx'", error("maxx"));
    assertEquals("p: needs 1 argument (quantile in (0,1]), got 0", error("p"));
    assertEquals("p: needs 1 argument (quantile in (0,1]), got 0", error("p:"));
    assertEquals("p: quantile must be in (0,1], got 1.5", error("p:1.5"));
    assertEquals("p: quantile must be in (0,1], got 0", error("p:0"));
    assertEquals("movavg: '10x' is not a number", error("movavg:10x,minutes"));
    assertEquals("max: takes no arguments, got 1", error("max:3"));
    assertTrue(error("movavg:10,fortnights").startsWith("movavg: unknown time unit 'fortnights'"));
    assertTrue(error("movavg:-10,minutes").startsWith("movavg: window must be positive"));
    assertTrue(error("movavg:10").startsWith("movavg: needs 2 arguments"));
    assertTrue(error("smovavg:0").startsWith("smovavg: number of samples must be at least 1"));
    assertTrue(error("top:2.5").startsWith("top: number of points must be a whole number"));
    assertTrue(error("downsample:0,s,avg").startsWith("downsample: interval must be positive"));
    assertTrue(error("vector:-1").startsWith("vector: tolerance must not be negative"));
    assertTrue(error("scale:NaN").startsWith("scale: 'NaN' is not a number"));
    assertTrue(error("movavg:10,,minutes").startsWith("movavg: argument 2 is empty"));
    assertEquals("empty function", error("  "));
  }
}
