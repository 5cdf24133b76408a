package io.chronix.ingest.protocol.opentsdb;

import io.chronix.ingest.protocol.OriginFree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.ParseResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenTsdbTelnetParserTest {

  private record Point(SeriesKey key, long timestamp, double value) {}

  private final List<Point> points = new ArrayList<>();

  private ParseResult parse(String body) throws IOException {
    return new OpenTsdbTelnetParser().parse(body, (k, t, v) -> points.add(new Point(OriginFree.key(k), t, v)));
  }

  private String problemOf(String line) throws IOException {
    ParseResult result = parse(line);
    assertEquals(1, result.errors().size(), () -> "expected one error for '" + line + "': " + result);
    assertTrue(points.isEmpty(), "nothing of a bad line is stored");
    return result.errors().get(0).problem();
  }

  @Test
  void putWithTags() throws IOException {
    ParseResult result = parse("put sys.cpu.user 1346846400 42.5 host=webserver01 cpu=0\n");
    assertEquals(1, result.points());
    assertEquals(new Point(SeriesKey.metric("sys.cpu.user", Map.of("host", "webserver01", "cpu", "0")),
        1_346_846_400_000_000_000L, 42.5), points.get(0));
  }

  @Test
  void secondsUpToTenDigitsMillisecondsBeyond() throws IOException {
    parse("put a 1346846400 1 x=y\nput a 1346846400123 2 x=y\nput a 1346846400.5 3 x=y\nput a 9000000000 4 x=y\nput a 10000000000 5 x=y");
    assertEquals(List.of(1_346_846_400_000_000_000L, 1_346_846_400_123_000_000L, 1_346_846_400_500_000_000L,
        9_000_000_000_000_000_000L, 10_000_000_000_000_000L), points.stream().map(Point::timestamp).toList());
  }

  @Test
  void pointsWithoutTagsAreAccepted() throws IOException {
    parse("put a 1 2");
    assertEquals(SeriesKey.metric("a", Map.of()), points.get(0).key());
  }

  @Test
  void reservedTagNamesAreMapped() throws IOException {
    parse("put a 1 2 name=x\tmin=3   host=h");
    assertEquals(Map.of("tag_name", "x", "tag_min", "3", "host", "h"), points.get(0).key().attributes());
  }

  @Test
  void badLinesAreNamedAndOthersKept() throws IOException {
    ParseResult result = parse("put a 1 1\nversion\nput a 2 2\nput a x 3\nput a 3\n");
    assertEquals(2, result.points());
    assertEquals(List.of(2, 4, 5), result.errors().stream().map(LineError::line).toList());
    assertTrue(result.errors().get(0).problem().startsWith("unknown command 'version'"), result.errors().get(0).problem());
    assertTrue(result.errors().get(1).problem().contains("timestamp 'x'"));
    assertTrue(result.errors().get(2).problem().startsWith("too few words"));
  }

  @Test
  void invalidValuesTimestampsAndTags() throws IOException {
    assertTrue(problemOf("put a 1 NaN").contains("NaN and infinite values are not stored"));
    assertTrue(problemOf("put a 1 abc").contains("not a number"));
    assertTrue(problemOf("put a -5 1").contains("negative"));
    assertTrue(problemOf("put a 10000000000000 1").contains("more than 13 digits"));
    assertTrue(problemOf("put a 9999999999 1").contains("outside the years 1677-2262"));
    assertTrue(problemOf("put a 1 1 host").contains("not tagk=tagv"));
    assertTrue(problemOf("put a 1 1 host=").contains("not tagk=tagv"));
    assertTrue(problemOf("put a 1 1 =x").contains("not tagk=tagv"));
    assertTrue(problemOf("put a 1 1 a=b=c").contains("not tagk=tagv"));
    assertTrue(problemOf("put a 1 1 h=a h=b").contains("appears twice"));
    assertTrue(problemOf("PUT a 1 1").contains("unknown command"));
  }
}
