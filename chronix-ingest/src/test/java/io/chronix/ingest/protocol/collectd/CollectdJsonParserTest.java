package io.chronix.ingest.protocol.collectd;

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

class CollectdJsonParserTest {

  private static final long NOW = 99L;
  static final String CPU = "{\"values\":[1901474177],\"dstypes\":[\"counter\"],\"dsnames\":[\"value\"],"
      + "\"time\":1280959128.120,\"interval\":10,\"host\":\"leeloo.octo.it\",\"plugin\":\"cpu\","
      + "\"plugin_instance\":\"0\",\"type\":\"cpu\",\"type_instance\":\"idle\"}";
  static final String LOAD = "{\"values\":[0.25,0.5,null],\"dstypes\":[\"gauge\",\"gauge\",\"gauge\"],"
      + "\"dsnames\":[\"shortterm\",\"midterm\",\"longterm\"],\"time\":1280959128,\"interval\":10,"
      + "\"host\":\"leeloo.octo.it\",\"plugin\":\"load\",\"plugin_instance\":\"\",\"type\":\"load\",\"type_instance\":\"\"}";

  private record Point(SeriesKey key, long timestamp, double value) {}

  private final List<Point> points = new ArrayList<>();

  private ParseResult parse(String body) throws IOException, MalformedBodyException {
    return new CollectdJsonParser(() -> NOW).parse(body, (k, t, v) -> points.add(new Point(OriginFree.key(k), t, v)));
  }

  private String problemOf(String valueList) throws Exception {
    ParseResult result = parse("[" + valueList + "]");
    assertEquals(1, result.errors().size(), () -> "expected one error for " + valueList + ": " + result);
    assertTrue(points.isEmpty(), "nothing of a bad value list is stored");
    return result.errors().get(0).problem();
  }

  @Test
  void valueListWithOneSourceNamedValue() throws Exception {
    ParseResult result = parse("[" + CPU + "]");
    assertEquals(1, result.points());
    assertEquals(new Point(SeriesKey.metric("cpu.cpu.idle", Map.of("host", "leeloo.octo.it", "plugin_instance", "0")),
        1_280_959_128_120_000_000L, 1901474177), points.get(0));
  }

  @Test
  void severalSourcesAreSeveralSeriesAndNullIsSkipped() throws Exception {
    ParseResult result = parse("[" + LOAD + "]");
    assertEquals(2, result.points());
    assertTrue(result.errors().isEmpty());
    Map<String, String> host = Map.of("host", "leeloo.octo.it");
    assertEquals(List.of(
        new Point(SeriesKey.metric("load.load.shortterm", host), 1_280_959_128_000_000_000L, 0.25),
        new Point(SeriesKey.metric("load.load.midterm", host), 1_280_959_128_000_000_000L, 0.5)), points);
  }

  @Test
  void zeroOrMissingTimeIsNow() throws Exception {
    parse("[" + CPU.replace("1280959128.120", "0") + "," + CPU.replace("\"time\":1280959128.120,", "") + "]");
    assertEquals(List.of(NOW, NOW), points.stream().map(Point::timestamp).toList());
  }

  @Test
  void badValueListsAreNamedByPositionAndTheOthersKept() throws Exception {
    String unequal = CPU.replace("[1901474177]", "[1, 2]");
    ParseResult result = parse("[" + CPU + "," + unequal + "," + LOAD + "]");
    assertEquals(3, result.points());
    assertEquals(List.of(2), result.errors().stream().map(LineError::line).toList());
    assertTrue(result.errors().get(0).problem().startsWith("leeloo.octo.it/cpu-0/cpu-idle: "), result.errors().get(0).problem());
    assertTrue(result.errors().get(0).problem().contains("differ in length (2, 1, 1)"), result.errors().get(0).problem());
  }

  @Test
  void aBadSourceRejectsTheWholeValueList() throws Exception {
    String bad = LOAD.replace("[0.25,0.5,null]", "[0.25,\"x\",null]");
    assertTrue(problemOf(bad).contains("value of 'midterm' must be a number, not a string"), problemOf(bad));
  }

  @Test
  void invalidValueLists() throws Exception {
    assertTrue(problemOf("1").contains("expected a value list"));
    assertTrue(problemOf(CPU.replace("\"host\":\"leeloo.octo.it\",", "")).contains("\"host\" is missing"));
    assertTrue(problemOf(CPU.replace("\"plugin\":\"cpu\"", "\"plugin\":\"\"")).contains("\"plugin\" is empty"));
    assertTrue(problemOf(CPU.replace("\"type\":\"cpu\"", "\"type\":3")).contains("\"type\" must be a string"));
    assertTrue(problemOf(CPU.replace("\"values\":[1901474177]", "\"values\":1")).contains("\"values\" must be an array"));
    assertTrue(problemOf(CPU.replace("\"dsnames\":[\"value\"],", "")).contains("\"dsnames\" is missing"));
    assertTrue(problemOf(CPU.replace("\"dsnames\":[\"value\"]", "\"dsnames\":[\"\"]")).contains("dsnames[0]"));
    assertTrue(problemOf(CPU.replace("\"dstypes\":[\"counter\"]", "\"dstypes\":[]")).contains("differ in length"));
    assertTrue(problemOf(CPU.replace("1901474177", "18446744073709551615")).contains("2^53"));
    assertTrue(problemOf(CPU.replace("1280959128.120", "\"now\"")).contains("\"time\" must be a number"));
  }

  @Test
  void malformedBody() {
    assertThrows(MalformedBodyException.class, () -> parse("[" + CPU));
    assertThrows(MalformedBodyException.class, () -> parse("plugin=cpu"));
  }
}
