package io.chronix.ingest.protocol.influx;

import io.chronix.ingest.protocol.OriginFree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Precision;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LineProtocolParserTest {

  private record Point(SeriesKey key, long timestamp, Object value) {}

  private final List<Point> points = new ArrayList<>();

  private final PointSink sink = new PointSink() {
    @Override
    public void accept(SeriesKey key, long timestamp, double value) {
      points.add(new Point(OriginFree.key(key), timestamp, value));
    }

    @Override
    public void acceptLong(SeriesKey key, long timestamp, long value) {
      points.add(new Point(OriginFree.key(key), timestamp, value));
    }

    @Override
    public void acceptBoolean(SeriesKey key, long timestamp, boolean value) {
      points.add(new Point(OriginFree.key(key), timestamp, value));
    }

    @Override
    public void acceptText(SeriesKey key, long timestamp, String value) {
      points.add(new Point(OriginFree.key(key), timestamp, value));
    }

    @Override
    public void acceptArray(SeriesKey key, long timestamp, double[] value) {
      points.add(new Point(OriginFree.key(key), timestamp, java.util.Arrays.toString(value)));
    }
  };

  private ParseResult parse(Precision precision, String body) throws IOException {
    return new LineProtocolParser(precision, 42L).parse(body, sink);
  }

  @Test
  void parsersSharingACacheHandOutOneKeyInstanceASeries() throws IOException {
    LineProtocolParser.SeriesCache cache = new LineProtocolParser.SeriesCache();
    List<SeriesKey> keys = new ArrayList<>();
    PointSink collect = doublesKeysInto(keys);
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse("cpu,host=a idle=1,user=2 1\n", collect);
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse("cpu,host=a user=3,idle=4 2\n", collect);
    assertSame(keys.get(0), keys.get(3), "idle");
    assertSame(keys.get(1), keys.get(2), "user");

    // two parsers that both missed the cache: the second one's prefix gives way to the first one's
    byte[] section = "mem,host=b".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    SeriesPrefix first = SeriesPrefix.parse(section, 0, 10);
    SeriesPrefix second = SeriesPrefix.parse(section, 0, 10);
    assertSame(first, cache.put(new SeriesSection().of(section, 0, 10), first).prefix());
    assertSame(first, cache.put(new SeriesSection().of(section, 0, 10), second).prefix());
  }

  /**
   * The cache is keyed by the section's bytes where they stand in a body: a body read into an
   * array that the next request reuses must not change what was cached, and sections whose hashes
   * collide ("Aa" and "BB") stay apart.
   */
  @Test
  void cachedSectionsOutliveTheirBodyAndCollidingHashesStayApart() throws IOException {
    assertEquals("Aa".hashCode(), "BB".hashCode());
    LineProtocolParser.SeriesCache cache = new LineProtocolParser.SeriesCache();
    byte[] body = "cpu,host=Aa idle=1 1\ncpu,host=BB idle=2 1\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse(body, 0, body.length, sink);
    // the same array overwritten by the next request, as a reused body buffer is
    byte[] next = "cpu,host=Cc idle=3 2\ncpu,host=Aa idle=4 2\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    System.arraycopy(next, 0, body, 0, body.length);
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse(body, 0, body.length, sink);
    // and a section found at another place of another array
    byte[] padded = "xxcpu,host=Aa idle=6 3\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse(padded, 2, padded.length - 2, sink);
    List<String> hosts = points.stream().map(p -> p.key().attributes().get("host")).toList();
    assertEquals(List.of("Aa", "BB", "Cc", "Aa", "Aa"), hosts);
    List<Object> values = points.stream().map(Point::value).toList();
    assertEquals(List.of(1.0, 2.0, 3.0, 4.0, 6.0), values);
  }

  /**
   * Requests share one instance of each field name, so that a prefix finds a field's series by
   * identity; once more names came than are shared, or a name is too long to share, a name is
   * still the same series.
   */
  @Test
  void fieldNamesAreSharedAcrossRequestsAndForgettingThemChangesNoSeries() throws IOException {
    LineProtocolParser.SeriesCache cache = new LineProtocolParser.SeriesCache();
    String shared = cache.fieldName(new String("usage_idle"));
    assertSame(shared, cache.fieldName(new String("usage_idle")));
    String longName = "f".repeat(300);
    assertEquals(longName, cache.fieldName(new String(longName)));
    List<SeriesKey> keys = new ArrayList<>();
    PointSink collect = doublesKeysInto(keys); // a handle's points reach it by the handle's key
    String line = "cpu,host=a usage_idle=1," + longName + "=2 1\n";
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse(line, collect);
    // a new series of a later request is made with the name instance the earlier request decoded
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse("mem,host=b usage_idle=3 1\n", collect);
    String field = io.chronix.core.series.SeriesOrigin.INFLUX_FIELD;
    assertSame(keys.get(0).attributes().get(field), keys.get(2).attributes().get(field), "one instance of the name");
    for (int n = 0; n < 5000; n++) { // more names than are shared: the shared ones are forgotten on the way
      cache.fieldName("other" + n);
    }
    new LineProtocolParser(Precision.SECONDS, 0, cache).parse(line, collect);
    assertEquals(5, keys.size());
    assertSame(keys.get(0), keys.get(3), "usage_idle");
    assertSame(keys.get(1), keys.get(4), "the long name");
    assertEquals("cpu_usage_idle", keys.get(0).name());
  }

  /** A sink that collects the key of each double point, ignoring the other types. */
  private static PointSink doublesKeysInto(List<SeriesKey> keys) {
    return new PointSink() {
      @Override
      public void accept(SeriesKey key, long timestamp, double value) {
        keys.add(key);
      }

      @Override
      public void acceptLong(SeriesKey key, long timestamp, long value) {}

      @Override
      public void acceptBoolean(SeriesKey key, long timestamp, boolean value) {}

      @Override
      public void acceptText(SeriesKey key, long timestamp, String value) {}

      @Override
      public void acceptArray(SeriesKey key, long timestamp, double[] value) {}
    };
  }

  /** A prefix's field series found by name wherever the field stands in a line, few fields or many. */
  @Test
  void aFieldsSeriesIsFoundByNameAtAnyPlace() {
    for (int fields : new int[] {3, 40}) { // scanned, and past the scanned few through a map
      SeriesPrefix prefix = SeriesPrefix.parse("cpu,host=a".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, 10);
      java.util.Map<String, io.chronix.ingest.buffer.SeriesHandle> first = new java.util.HashMap<>();
      for (int f = 0; f < fields; f++) {
        first.put("f" + f, prefix.handle("f" + f, io.chronix.core.series.ValueType.DOUBLE, f));
      }
      for (int f = fields - 1; f >= 0; f--) { // reversed: the place tried first holds another field
        io.chronix.ingest.buffer.SeriesHandle again =
            prefix.handle(new String("f" + f), io.chronix.core.series.ValueType.DOUBLE, fields - 1 - f);
        assertSame(first.get("f" + f), again, "f" + f);
        assertEquals("cpu_f" + f, again.key().name());
      }
    }
  }

  @Test
  void measurementTagsAndFieldsBecomeSeries() throws IOException {
    ParseResult result = parse(Precision.NANOSECONDS, "cpu,host=web1,dc=eu usage_idle=97.5,usage_user=2i 1439393134415000001\n");
    assertEquals(2, result.points());
    assertEquals(new Point(SeriesKey.metric("cpu_usage_idle", Map.of("host", "web1", "dc", "eu")), 1439393134415000001L, 97.5), points.get(0));
    assertEquals(new Point(new SeriesKey("cpu_usage_user", "long", Map.of("host", "web1", "dc", "eu")), 1439393134415000001L, 2L),
        points.get(1), "integers make exact long series");
  }

  @Test
  void indexedFieldsMakeOneArraySeries() throws IOException {
    ParseResult result = parse(Precision.SECONDS,
        "cpu,host=a usage[1]=0.25,idle=3,usage[0]=5i,usage[2]=1e-3 10\n"
            + "cpu,host=a value[0]=1,f[x]=2,g[]=3,h[01]=4 20\n"
            + "cpu,host=a big[9999]=1 30\n"
            + "cpu,host=a big[10000]=1 40\n");
    assertEquals(new Point(new SeriesKey("cpu_usage", "array", Map.of("host", "a")), 10_000_000_000L, "[5.0, 0.25, 0.001]"),
        points.get(1), "elements in any order, integers as doubles; one point for the array");
    assertEquals(new Point(SeriesKey.metric("cpu_idle", Map.of("host", "a")), 10_000_000_000L, 3.0), points.get(0));
    assertEquals(new Point(new SeriesKey("cpu", "array", Map.of("host", "a")), 20_000_000_000L, "[1.0]"), points.get(5),
        "value[i] keeps the measurement's name; names with brackets but no index stay plain fields");
    assertEquals("cpu_f[x]", points.get(2).key().name());
    assertEquals("cpu_g[]", points.get(3).key().name());
    assertEquals("cpu_h[01]", points.get(4).key().name(), "an index has no leading zero");
    assertEquals(2, result.errors().size(), result.errors().toString());
    assertTrue(result.errors().get(0).problem().contains("has 1 elements but an index 9999"), result.errors().toString());
    assertTrue(result.errors().get(1).problem().contains("array index beyond the largest, 9999"), result.errors().toString());
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
    assertEquals(List.of(1d, -1500d, 0.5, 7L, -9007199254740992L, 0.001),
        points.stream().map(Point::value).toList());
  }

  @Test
  void badLinesAreNamedAndNothingOfThemIsStored() throws IOException {
    String body = String.join("\n",
        "ok value=1 1",
        "a x=abc 1",
        "a x=1,y=\"unclosed 1",
        "a x=18446744073709551615u 1",
        "a x=NaN 1",
        "a x=99999999999999999999i 1",
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
    assertTrue(result.errors().get(1).problem().contains("no closing quote"), result.errors().get(1).problem());
    assertTrue(result.errors().get(2).problem().contains("2^63-1"), result.errors().get(2).problem());
    assertTrue(result.errors().get(4).problem().contains("not a valid integer"), result.errors().get(4).problem());
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
      assertEquals(Double.doubleToRawLongBits(values[i]), Double.doubleToRawLongBits((Double) points.get(i).value()));
      assertEquals(1_000_000_007L * i, points.get(i).timestamp());
    }
  }

  @Test
  void fieldTypesPickTheSeriesType() throws IOException {
    ParseResult result = parse(Precision.SECONDS,
        "svc,host=a state=\"running, \\\"ok\\\" \\\\ fine\",up=t,down=FALSE,restarts=3i,big=18446744073709551u,load=0.5 10");
    assertEquals(List.of(), result.errors());
    Map<String, String> host = Map.of("host", "a");
    assertEquals(List.of(
        new Point(new SeriesKey("svc_state", "string", host), 10_000_000_000L, "running, \"ok\" \\ fine"),
        new Point(new SeriesKey("svc_up", "boolean", host), 10_000_000_000L, true),
        new Point(new SeriesKey("svc_down", "boolean", host), 10_000_000_000L, false),
        new Point(new SeriesKey("svc_restarts", "long", host), 10_000_000_000L, 3L),
        new Point(new SeriesKey("svc_big", "long", host), 10_000_000_000L, 18446744073709551L),
        new Point(SeriesKey.metric("svc_load", host), 10_000_000_000L, 0.5)), points);
  }

  @Test
  void runsOfOneSeriesReuseTheSectionOnlyWhereItEndsAlike() throws IOException {
    ParseResult result = parse(Precision.NANOSECONDS, String.join("\n",
        "m\\ x,host=a value=1 1",
        "m\\ x,host=a value=2 2", // same bytes, same section
        "m\\ x,host=a\\ b value=3 3", // longer section with the same start
        "m\\ x,host=a value=4,other=5 4", // a second field after the remembered one
        "m\\ x,host=a oth\\=er=6 5", // an escaped '=' in a field name
        "m\\ x,host=a oth\\=er=7 6",
        "m\\ x,host=a", // section to the line's end: an error, and not reused
        "m\\ x,host=a value=8 7",
        "m\\ x,host=\u00e9t\u00e9 value=9 8")); // UTF-8 in a tag value
    assertEquals(9, result.points());
    assertEquals(1, result.errors().size());
    assertEquals(7, result.errors().get(0).line());
    SeriesKey ax = SeriesKey.metric("m x", Map.of("host", "a"));
    assertEquals(new Point(ax, 2, 2.0), points.get(1));
    assertEquals(new Point(SeriesKey.metric("m x", Map.of("host", "a b")), 3, 3.0), points.get(2));
    assertEquals(new Point(SeriesKey.metric("m x_other", Map.of("host", "a")), 4, 5.0), points.get(4));
    assertEquals(new Point(SeriesKey.metric("m x_oth=er", Map.of("host", "a")), 6, 7.0), points.get(6));
    assertEquals(new Point(ax, 7, 8.0), points.get(7));
    assertEquals(new Point(SeriesKey.metric("m x", Map.of("host", "\u00e9t\u00e9")), 8, 9.0), points.get(8));
  }

  /** The word-at-a-time search for the next newline finds what a byte-by-byte scan finds, at every alignment. */
  @Test
  void lineEndsAreFoundWordByWordAsByteByByte() {
    java.util.Random random = new java.util.Random(3);
    byte[] tricky = {'\n', (byte) 0x8A, 0x0B, 0x09, 0x00, (byte) 0xFF, 0x0A - 1, (byte) 0x80, 'a'};
    for (int round = 0; round < 2000; round++) {
      byte[] body = new byte[random.nextInt(40)];
      for (int i = 0; i < body.length; i++) {
        body[i] = random.nextInt(4) == 0 ? tricky[random.nextInt(tricky.length)] : (byte) random.nextInt(256);
      }
      for (int from = 0; from <= body.length; from++) {
        int expected = from;
        while (expected < body.length && body[expected] != '\n') {
          expected++;
        }
        assertEquals(expected, LineProtocolParser.lineEnd(body, from, body.length), "from " + from + " in "
            + java.util.Arrays.toString(body));
      }
    }
  }
}
