package io.chronix.ingest.protocol.graphite;

import io.chronix.ingest.protocol.OriginFree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.ParseResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GraphiteParserTest {

  private static final long NOW = 1_700_000_000_123_456_789L;

  private record Point(SeriesKey key, long timestamp, double value) {}

  private final List<Point> points = new ArrayList<>();
  private final GraphiteParser parser = new GraphiteParser(NOW);

  private ParseResult parse(String body) throws IOException {
    return parser.parse(body, (k, t, v) -> points.add(new Point(OriginFree.key(k), t, v)));
  }

  private String problemOf(String line) throws IOException {
    ParseResult result = parse(line);
    assertEquals(1, result.errors().size(), () -> "expected one error for '" + line + "': " + result);
    assertEquals(0, result.points());
    assertTrue(points.isEmpty(), "nothing of a bad line is stored");
    return result.errors().get(0).problem();
  }

  @Test
  void plainLines() throws IOException {
    ParseResult result = parse("servers.web1.cpu.idle 97.5 1439393134\nservers.web1.load -1e-3 1439393135\n");
    assertEquals(2, result.points());
    assertEquals(List.of(
        new Point(SeriesKey.metric("servers.web1.cpu.idle", Map.of()), 1_439_393_134_000_000_000L, 97.5),
        new Point(SeriesKey.metric("servers.web1.load", Map.of()), 1_439_393_135_000_000_000L, -0.001)), points);
  }

  @Test
  void taggedSeriesBecomeAttributes() throws IOException {
    parse("disk.used;host=web1;dc=eu-west;name=x 12 1439393134");
    Point point = points.get(0);
    assertEquals("disk.used", point.key().name());
    // "name" is a record field and so is stored under the reserved prefix
    assertEquals(Map.of("host", "web1", "dc", "eu-west", "tag_name", "x"), point.key().attributes());
  }

  @Test
  void tagValuesMayHoldEqualsSigns() throws IOException {
    parse("a;expr=x=1 1 1");
    assertEquals(Map.of("expr", "x=1"), points.get(0).key().attributes());
  }

  @Test
  void fractionalTimestampsKeepTheFractionToTheNanosecond() throws IOException {
    parse("a 1 1439393134.5\na 2 1439393134.123456789\na 3 1439393134.1234567899\na 4 -0.5");
    assertEquals(1_439_393_134_500_000_000L, points.get(0).timestamp());
    assertEquals(1_439_393_134_123_456_789L, points.get(1).timestamp());
    assertEquals(1_439_393_134_123_456_789L, points.get(2).timestamp(), "finer than a nanosecond rounds down");
    assertEquals(-500_000_000L, points.get(3).timestamp());
  }

  @Test
  void missingOrMinusOneTimestampIsTheServerClock() throws IOException {
    parse("a 1\na 2 -1\na 3 -1.0");
    assertEquals(List.of(NOW, NOW, NOW), points.stream().map(Point::timestamp).toList());
  }

  @Test
  void clockIsAskedPerLine() throws IOException {
    long[] clock = {10};
    GraphiteParser ticking = new GraphiteParser(() -> clock[0]++);
    List<Long> timestamps = new ArrayList<>();
    ticking.parse("a 1\na 2\n", (k, t, v) -> timestamps.add(t));
    assertEquals(List.of(10L, 11L), timestamps);
  }

  @Test
  void spacesTabsAndCrlfBetweenFields() throws IOException {
    ParseResult result = parse("  a \t 1.5\t\t 100  \r\n\r\n\tb 2 200\r\n");
    assertEquals(2, result.points());
    assertEquals(new Point(SeriesKey.metric("a", Map.of()), 100_000_000_000L, 1.5), points.get(0));
    assertEquals(new Point(SeriesKey.metric("b", Map.of()), 200_000_000_000L, 2), points.get(1));
  }

  @Test
  void badLinesAreNamedByNumberAndTheGoodOnesKept() throws IOException {
    ParseResult result = parse("good 1 10\nbad\n\ngood 2 20\nbad x 30\nbad 3 y\n");
    assertEquals(2, result.points());
    assertEquals(List.of(10_000_000_000L, 20_000_000_000L), points.stream().map(Point::timestamp).toList());
    List<LineError> errors = result.errors();
    assertEquals(List.of(2, 5, 6), errors.stream().map(LineError::line).toList());
    assertTrue(errors.get(0).problem().startsWith("missing value"), errors.get(0).problem());
    assertTrue(errors.get(1).problem().contains("value 'x' is not a number"), errors.get(1).problem());
    assertTrue(errors.get(2).problem().contains("timestamp 'y'"), errors.get(2).problem());
    assertTrue(errors.get(2).problem().endsWith("in 'bad 3 y'"), "the line is quoted: " + errors.get(2).problem());
  }

  @Test
  void nanAndInfinityAreRejectedClearly() throws IOException {
    for (String value : List.of("nan", "NaN", "inf", "-Infinity", "+inf")) {
      assertTrue(problemOf("a " + value + " 1").contains("NaN and infinite values are not stored"), value);
    }
    assertTrue(problemOf("a 1e999 1").contains("too large"));
  }

  @Test
  void javaOnlyNumberSyntaxIsRejected() throws IOException {
    for (String value : List.of("0x10", "1d", "1f", "0x1p3", "1_000", "1e", ".", "١")) {
      String line = "a " + value + " 1";
      assertTrue(problemOf(line).contains("is not a number"), line);
    }
  }

  @Test
  void timestampsOutOfRangeOrMalformed() throws IOException {
    assertTrue(problemOf("a 1 1439393134000").contains("outside the years 1677-2262 (milliseconds sent as seconds?)"));
    assertTrue(problemOf("a 1 1e9").contains("not a decimal number"));
    assertTrue(problemOf("a 1 " + "9".repeat(30)).contains("outside the years"));
  }

  @Test
  void tooManyFields() throws IOException {
    assertTrue(problemOf("a 1 2 3").startsWith("more than three fields"));
  }

  @Test
  void badTags() throws IOException {
    assertTrue(problemOf(";host=a 1 1").contains("without a name"));
    assertTrue(problemOf("a;host 1 1").contains("tag 'host' is not name=value"));
    assertTrue(problemOf("a;host= 1 1").contains("empty value"));
    assertTrue(problemOf("a;=x 1 1").contains("empty name"));
    assertTrue(problemOf("a;host=x; 1 1").contains("empty tag"));
    assertTrue(problemOf("a;host=x;;dc=y 1 1").contains("empty tag"));
    assertTrue(problemOf("a;ho!st=x 1 1").contains("'!' or '^'"));
    assertTrue(problemOf("a;host=~x 1 1").contains("starting with '~'"));
    assertTrue(problemOf("a;host=x;host=y 1 1").contains("appears twice"));
    assertTrue(problemOf("a;cores_l=many 1 1").contains("whole number"));
  }

  @Test
  void parseLineThrowsForSocketReaders() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parser.parseLine("a b", 7, (k, t, v) -> points.add(new Point(OriginFree.key(k), t, v))));
    assertTrue(e.getMessage().contains("'b' is not a number"));
    assertTrue(points.isEmpty());
  }
}
