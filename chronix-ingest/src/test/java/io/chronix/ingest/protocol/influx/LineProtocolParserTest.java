package io.chronix.ingest.protocol.influx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Precision;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.ParseResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LineProtocolParserTest {

  private record Point(SeriesKey key, long timestamp, double value) {}

  private final List<Point> points = new ArrayList<>();

  private ParseResult parse(Precision precision, String body) throws IOException {
    return new LineProtocolParser(precision, 42L).parse(body, (k, t, v) -> points.add(new Point(k, t, v)));
  }

  @Test
  void measurementTagsAndFieldsBecomeSeries() throws IOException {
    ParseResult result = parse(Precision.NANOSECONDS, "cpu,host=web1,dc=eu usage_idle=97.5,usage_user=2i 1439393134415000001\n");
    assertEquals(2, result.points());
    assertEquals(new Point(SeriesKey.metric("cpu_usage_idle", Map.of("host", "web1", "dc", "eu")), 1439393134415000001L, 97.5), points.get(0));
    assertEquals(new Point(SeriesKey.metric("cpu_usage_user", Map.of("host", "web1", "dc", "eu")), 1439393134415000001L, 2), points.get(1));
  }

  @Test
  void fieldNamedValueKeepsTheMeasurementName() throws IOException {
    parse(Precision.SECONDS, "load value=0.5 10");
    assertEquals(new Point(SeriesKey.metric("load", Map.of()), 10_000_000_000L, 0.5), points.get(0));
  }

  @Test
  void precisionsAndMissingTimestamp() throws IOException {
    parse(Precision.MILLISECONDS, "a value=1 5\na value=2");
    assertEquals(5_000_000L, points.get(0).timestamp());
    assertEquals(42L, points.get(1).timestamp());
    points.clear();
    parse(Precision.MICROSECONDS, "a value=1 -5");
    assertEquals(-5_000L, points.get(0).timestamp());
  }

  @Test
  void escapesInMeasurementTagsAndFieldKeys() throws IOException {
    parse(Precision.NANOSECONDS,
        "java.lang:name=PS\\ Eden\\ Space\\,type=MemoryPool/Usage,host=a\\ b,k\\=1=v\\,2 my\\ field=1 1\n"
            + "\\\\CPU\\\\us,host=x value=3 2\n"
            + "\\CPU\\sy value=4 3\n");
    assertEquals("java.lang:name=PS Eden Space,type=MemoryPool/Usage_my field", points.get(0).key().name());
    assertEquals(Map.of("host", "a b", "k=1", "v,2"), points.get(0).key().attributes());
    assertEquals("\\CPU\\us", points.get(1).key().name());
    assertEquals("\\CPU\\sy", points.get(2).key().name(), "a backslash before an ordinary character stays");
  }

  @Test
  void numberForms() throws IOException {
    parse(Precision.NANOSECONDS, "a x=1,y=-1.5e3,z=.5,u=7u,i=-9007199254740992i,e=1E-3 1");
    assertEquals(List.of(1d, -1500d, 0.5, 7d, -9007199254740992d, 0.001),
        points.stream().map(Point::value).toList());
  }

  @Test
  void badLinesAreNamedAndNothingOfThemIsStored() throws IOException {
    String body = String.join("\n",
        "ok value=1 1",
        "a x=abc 1",
        "a x=1,y=\"text\" 1",
        "a x=true 1",
        "a x=NaN 1",
        "a x=9007199254740993i 1",
        "a x=1 12abc",
        "a x=1 1 extra",
        "a,host= x=1 1",
        "a,=v x=1 1",
        "a",
        ",host=a x=1 1",
        "a x= 1",
        "a x=1 99999999999999999",
        "# a comment",
        "",
        "ok value=2 2");
    ParseResult result = parse(Precision.SECONDS, body);
    assertEquals(2, result.points());
    assertEquals(List.of(1d, 2d), points.stream().map(Point::value).toList());
    List<Integer> lines = result.errors().stream().map(e -> e.line()).toList();
    assertEquals(List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14), lines);
    assertTrue(result.errors().get(0).problem().contains("'abc' is not a number"), result.errors().get(0).problem());
    assertTrue(result.errors().get(1).problem().contains("string"), result.errors().get(1).problem());
    assertTrue(result.errors().get(4).problem().contains("2^53"), result.errors().get(4).problem());
    assertTrue(result.errors().get(12).problem().contains("1677-2262"), result.errors().get(12).problem());
  }

  @Test
  void reservedAndTypedTags() throws IOException {
    parse(Precision.SECONDS, "disk,name=sda,type=ssd,_x=1,cores_l=08 value=1 1");
    assertEquals(Map.of("tag_name", "sda", "tag_type", "ssd", "tag__x", "1", "cores_l", "8"), points.get(0).key().attributes());
    ParseResult bad = parse(Precision.SECONDS, "disk,cores_l=eight value=1 1");
    assertTrue(bad.errors().get(0).problem().contains("whole number"), bad.errors().get(0).problem());
  }

  @Test
  void writerOutputParsesBackToTheSameSeriesAndBits() throws IOException {
    SeriesKey key = SeriesKey.metric("java.lang:name=PS Eden Space,type=MemoryPool/Usage \\used\\",
        Map.of("host", "pre-int", "group", "jmx-all_pre int", "odd", "a=b,c\\d"));
    StringBuilder body = new StringBuilder();
    double[] values = {67.1, 1.439393134415E12, -0.0, 4.9E-324, 0.30000000000000004};
    for (int i = 0; i < values.length; i++) {
      LineProtocolWriter.appendPoint(LineProtocolWriter.seriesPrefix(key), 1_000_000_007L * i, values[i], body);
    }
    ParseResult result = parse(Precision.NANOSECONDS, body.toString());
    assertEquals(List.of(), result.errors());
    for (int i = 0; i < values.length; i++) {
      assertEquals(key, points.get(i).key());
      assertEquals(Double.doubleToRawLongBits(values[i]), Double.doubleToRawLongBits(points.get(i).value()));
      assertEquals(1_000_000_007L * i, points.get(i).timestamp());
    }
  }
}
