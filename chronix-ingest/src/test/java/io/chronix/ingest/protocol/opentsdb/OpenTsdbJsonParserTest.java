package io.chronix.ingest.protocol.opentsdb;

import io.chronix.ingest.protocol.OriginFree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenTsdbJsonParserTest {

  private static final long NOW = 77L;

  private record Point(SeriesKey key, long timestamp, double value) {}

  private final List<Point> points = new ArrayList<>();

  private ParseResult parse(String body) throws IOException, MalformedBodyException {
    return new OpenTsdbJsonParser(() -> NOW).parse(body, (k, t, v) -> points.add(new Point(OriginFree.key(k), t, v)));
  }

  private String problemOf(String point) throws Exception {
    ParseResult result = parse("[" + point + "]");
    assertEquals(1, result.errors().size(), () -> "expected one error for " + point + ": " + result);
    assertEquals(1, result.errors().get(0).line());
    assertTrue(points.isEmpty());
    return result.errors().get(0).problem();
  }

  @Test
  void singleObject() throws Exception {
    ParseResult result = parse("{\"metric\":\"sys.cpu.user\",\"timestamp\":1346846400,\"value\":18,\"tags\":{\"host\":\"web01\"}}");
    assertEquals(1, result.points());
    assertEquals(new Point(SeriesKey.metric("sys.cpu.user", Map.of("host", "web01")), 1_346_846_400_000_000_000L, 18),
        points.get(0));
  }

  @Test
  void arrayWithMillisecondsStringsAndNumbersAsTags() throws Exception {
    ParseResult result = parse("[{\"metric\":\"a\",\"timestamp\":1346846400123,\"value\":\"1.5\",\"tags\":{\"cpu\":0}},"
        + "{\"metric\":\"b\",\"timestamp\":\"1346846400\",\"value\":-2e3,\"tags\":{}},"
        + "{\"metric\":\"c\",\"timestamp\":1346846400.25,\"value\":3}]");
    assertEquals(3, result.points());
    assertEquals(List.of(
        new Point(SeriesKey.metric("a", Map.of("cpu", "0")), 1_346_846_400_123_000_000L, 1.5),
        new Point(SeriesKey.metric("b", Map.of()), 1_346_846_400_000_000_000L, -2000),
        new Point(SeriesKey.metric("c", Map.of()), 1_346_846_400_250_000_000L, 3)), points);
  }

  @Test
  void missingTimestampIsTheServerClock() throws Exception {
    parse("{\"metric\":\"a\",\"value\":1}");
    assertEquals(NOW, points.get(0).timestamp());
  }

  @Test
  void badPointsAreNamedByPositionAndTheGoodOnesKept() throws Exception {
    ParseResult result = parse("[{\"metric\":\"a\",\"timestamp\":1,\"value\":1},"
        + "{\"metric\":\"b\",\"timestamp\":1,\"value\":\"NaN\"},"
        + "{\"metric\":\"c\",\"timestamp\":2,\"value\":2},"
        + "42,"
        + "{\"timestamp\":1,\"value\":1}]");
    assertEquals(2, result.points());
    assertEquals(List.of("a", "c"), points.stream().map(p -> p.key().name()).toList());
    assertEquals(List.of(2, 4, 5), result.errors().stream().map(LineError::line).toList());
    assertTrue(result.errors().get(0).problem().startsWith("metric 'b': value 'NaN'"), result.errors().get(0).problem());
    assertTrue(result.errors().get(1).problem().contains("expected a JSON object, not a number"));
    assertTrue(result.errors().get(2).problem().contains("\"metric\" is missing"));
  }

  @Test
  void invalidFields() throws Exception {
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1}").contains("\"value\" is missing"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":true}").contains("must be a number or a numeric string, not a boolean"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":\"0x1\"}").contains("not a number"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":9007199254740993}").contains("2^53"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":1e400}").contains("too large"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":-1,\"value\":1}").contains("negative"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":12345678901234,\"value\":1}").contains("more than 13 digits"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":[1],\"value\":1}").contains("\"timestamp\" must be a number"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":1,\"tags\":[]}").contains("\"tags\" must be an object"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":1,\"tags\":{\"h\":null}}").contains("tag 'h' must be a string"));
    assertTrue(problemOf("{\"metric\":\"a\",\"timestamp\":1,\"value\":1,\"tags\":{\"h\":\"\"}}").contains("empty value"));
    assertTrue(problemOf("{\"metric\":\"\",\"timestamp\":1,\"value\":1}").contains("\"metric\" is missing or not a non-empty string"));
  }

  @Test
  void malformedBodiesStoreNothing() {
    for (String body : List.of("", "  ", "[{\"metric\":", "42", "\"x\"", "[1,2", "{} {}", "[{\"metric\":\"a\",\"value\":1}] x", "{\"value\":NaN}")) {
      MalformedBodyException e = assertThrows(MalformedBodyException.class, () -> parse(body), body);
      assertTrue(!e.getMessage().isEmpty());
    }
  }

  @Test
  void syntaxErrorsNameTheLocation() {
    MalformedBodyException e = assertThrows(MalformedBodyException.class, () -> parse("[\n{\"metric\" \"a\"}]"));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
  }

  @Test
  void emptyArrayIsNoPoints() throws Exception {
    ParseResult result = parse("[]");
    assertEquals(0, result.points());
    assertTrue(result.errors().isEmpty());
  }
}
