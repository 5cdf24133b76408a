package io.chronix.ingest.protocol.prometheus;

import io.chronix.ingest.protocol.OriginFree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.prometheus.proto.BucketSpan;
import io.chronix.ingest.protocol.prometheus.proto.Histogram;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.MetricMetadata;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class RemoteWriteParserTest {

  private static final long T1 = 1_700_000_000_123L;
  private static final long T2 = 1_700_000_015_123L;
  private static final double STALE = Double.longBitsToDouble(RemoteWriteParser.STALE_NAN_BITS);

  /** Values compared by their bits, so that NaN and -0.0 are checked exactly. */
  private record Point(SeriesKey key, long timestamp, long valueBits) {}

  private static Point point(SeriesKey key, long timestamp, double value) {
    return new Point(OriginFree.key(key), timestamp, Double.doubleToRawLongBits(value));
  }

  private final List<Point> points = new ArrayList<>();

  private ParseResult parse(WriteRequest request) throws IOException, MalformedBodyException {
    return new RemoteWriteParser().parse(Snappy.compress(request.toByteArray()),
        (key, timestamp, value) -> points.add(point(key, timestamp, value)));
  }

  static TimeSeries.Builder series(String... labels) {
    TimeSeries.Builder series = TimeSeries.newBuilder();
    for (int i = 0; i < labels.length; i += 2) {
      series.addLabels(Label.newBuilder().setName(labels[i]).setValue(labels[i + 1]));
    }
    return series;
  }

  static Sample sample(double value, long millis) {
    return Sample.newBuilder().setValue(value).setTimestamp(millis).build();
  }

  private static SeriesKey key(String name, String... attributes) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < attributes.length; i += 2) {
      map.put(attributes[i], attributes[i + 1]);
    }
    return SeriesKey.metric(name, map);
  }

  private static long nanos(long millis) {
    return millis * 1_000_000L;
  }

  private static BucketSpan span(int offset, int length) {
    return BucketSpan.newBuilder().setOffset(offset).setLength(length).build();
  }

  @Test
  void floatSamplesOfEveryMetricKindBecomePoints() throws Exception {
    WriteRequest request = WriteRequest.newBuilder()
        // counter
        .addTimeseries(series("__name__", "http_requests_total", "code", "200", "method", "GET")
            .addSamples(sample(1027, T1)).addSamples(sample(1031, T2)))
        // gauge
        .addTimeseries(series("__name__", "room_temperature_celsius", "room", "kitchen")
            .addSamples(sample(-3.25, T1)))
        // summary
        .addTimeseries(series("__name__", "rpc_duration_seconds", "quantile", "0.99").addSamples(sample(0.125, T1)))
        .addTimeseries(series("__name__", "rpc_duration_seconds_sum").addSamples(sample(17.5, T1)))
        .addTimeseries(series("__name__", "rpc_duration_seconds_count").addSamples(sample(140, T1)))
        // classic histogram
        .addTimeseries(series("__name__", "req_duration_seconds_bucket", "le", "0.5").addSamples(sample(3, T1)))
        .addTimeseries(series("__name__", "req_duration_seconds_bucket", "le", "+Inf").addSamples(sample(5, T1)))
        .addMetadata(MetricMetadata.newBuilder().setType(MetricMetadata.MetricType.COUNTER)
            .setMetricFamilyName("http_requests_total").setHelp("requests served"))
        .build();

    ParseResult result = parse(request);

    assertFalse(result.hasErrors(), result.errors().toString());
    assertEquals(List.of(
        point(key("http_requests_total", "code", "200", "method", "GET"), nanos(T1), 1027),
        point(key("http_requests_total", "code", "200", "method", "GET"), nanos(T2), 1031),
        point(key("room_temperature_celsius", "room", "kitchen"), nanos(T1), -3.25),
        point(key("rpc_duration_seconds", "quantile", "0.99"), nanos(T1), 0.125),
        point(key("rpc_duration_seconds_sum"), nanos(T1), 17.5),
        point(key("rpc_duration_seconds_count"), nanos(T1), 140),
        point(key("req_duration_seconds_bucket", "le", "0.5"), nanos(T1), 3),
        point(key("req_duration_seconds_bucket", "le", "+Inf"), nanos(T1), 5)), points);
    assertEquals(8, result.points());
  }

  @Test
  void staleMarkersAndOtherNansAndOddValuesAreKeptBitExact() throws Exception {
    double otherNan = Double.longBitsToDouble(0x7ff8000000000000L);
    WriteRequest request = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "up", "job", "api")
            .addSamples(sample(1, T1))
            .addSamples(sample(STALE, T2))
            .addSamples(sample(otherNan, T2 + 1))
            .addSamples(sample(-0.0, T2 + 2))
            .addSamples(sample(Double.MIN_VALUE, -1))
            .addSamples(sample(0.1 + 0.2, 0)))
        .build();

    ParseResult result = parse(request);

    assertFalse(result.hasErrors());
    SeriesKey up = key("up", "job", "api");
    assertEquals(List.of(
        point(up, nanos(T1), 1),
        point(up, nanos(T2), STALE),
        point(up, nanos(T2 + 1), otherNan),
        point(up, nanos(T2 + 2), -0.0),
        point(up, -1_000_000L, Double.MIN_VALUE),
        point(up, 0, 0.1 + 0.2)), points);
  }

  @Test
  void labelsBecomeAttributesThroughTheSharedRules() throws Exception {
    WriteRequest request = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "process_open_fds", "name", "solr", "type", "jvm", "__tenant", "a",
            "pid_l", "0042", "empty", "", "instance", "host:9100")
            .addSamples(sample(12, T1)))
        .build();

    ParseResult result = parse(request);

    assertFalse(result.hasErrors(), result.errors().toString());
    assertEquals(key("process_open_fds", "tag_name", "solr", "tag_type", "jvm", "tag___tenant", "a",
        "pid_l", "42", "instance", "host:9100"), points.get(0).key());
  }

  @Test
  void badSeriesAreReportedByIndexAndTheOthersKept() throws Exception {
    WriteRequest request = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "good_one").addSamples(sample(1, T1)))
        .addTimeseries(series("job", "nameless").addSamples(sample(2, T1)))
        .addTimeseries(series("__name__", "typed", "port_l", "http").addSamples(sample(3, T1)))
        .addTimeseries(series("__name__", "twice", "a", "1", "a", "2").addSamples(sample(4, T1)))
        .addTimeseries(series("__name__", "far_future").addSamples(sample(5, T1)).addSamples(sample(6, Long.MAX_VALUE)))
        .addTimeseries(series("__name__", "bad_histogram").addHistograms(Histogram.newBuilder().setSchema(9)))
        .addTimeseries(series("__name__", "good_two").addSamples(sample(7, T2)))
        .build();

    ParseResult result = parse(request);

    assertEquals(List.of(point(key("good_one"), nanos(T1), 1), point(key("good_two"), nanos(T2), 7)), points,
        "a bad series delivers none of its points, not even the good samples before the bad one");
    assertEquals(2, result.points());
    List<LineError> errors = result.errors();
    assertEquals(List.of(2, 3, 4, 5, 6), errors.stream().map(LineError::line).toList());
    assertEquals("no metric name (label __name__) in {job=\"nameless\"}", errors.get(0).problem());
    assertTrue(errors.get(1).problem().contains("port_l") && errors.get(1).problem().contains("typed{port_l=\"http\"}"),
        errors.get(1).problem());
    assertTrue(errors.get(2).problem().startsWith("label 'a' appears twice"), errors.get(2).problem());
    assertTrue(errors.get(3).problem().startsWith("sample 2: timestamp " + Long.MAX_VALUE + " ms"), errors.get(3).problem());
    assertTrue(errors.get(4).problem().startsWith("histogram 1: schema 9 is not supported"), errors.get(4).problem());
  }

  @Test
  void integerNativeHistogramBecomesCountSumAndCumulativeBuckets() throws Exception {
    // schema 0: bucket i holds (2^(i-1), 2^i]; positive buckets 0, 1, 3 (counts 2, 0, 3 as deltas),
    // negative bucket 1 holding [-2, -1) (count 1), zero bucket [-0.001, 0.001] (count 1)
    Histogram histogram = Histogram.newBuilder()
        .setCountInt(7).setSum(12.5).setSchema(0).setZeroThreshold(0.001).setZeroCountInt(1)
        .addNegativeSpans(span(1, 1)).addNegativeDeltas(1)
        .addPositiveSpans(span(0, 2)).addPositiveSpans(span(1, 1))
        .addPositiveDeltas(2).addPositiveDeltas(-2).addPositiveDeltas(3)
        .setResetHint(Histogram.ResetHint.NO)
        .setTimestamp(T1)
        .build();
    WriteRequest request = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "rpc_latency_seconds", "job", "api").addHistograms(histogram))
        .build();

    ParseResult result = parse(request);

    assertFalse(result.hasErrors(), result.errors().toString());
    long t = nanos(T1);
    assertEquals(List.of(
        point(key("rpc_latency_seconds_count", "job", "api"), t, 7),
        point(key("rpc_latency_seconds_sum", "job", "api"), t, 12.5),
        point(key("rpc_latency_seconds_bucket", "job", "api", "le", "-1.0"), t, 1),
        point(key("rpc_latency_seconds_bucket", "job", "api", "le", "0.001"), t, 2),
        point(key("rpc_latency_seconds_bucket", "job", "api", "le", "1.0"), t, 4),
        point(key("rpc_latency_seconds_bucket", "job", "api", "le", "8.0"), t, 7),
        point(key("rpc_latency_seconds_bucket", "job", "api", "le", "+Inf"), t, 7)), points);
    assertEquals(7, result.points());
  }

  @Test
  void fractionalSchemaBoundsAreRootsOfTwo() throws Exception {
    // schema 3: base 2^(1/8); bucket 1 ends at 1.0905077326652577, bucket 8 at 2
    Histogram histogram = Histogram.newBuilder()
        .setCountInt(3).setSum(4.5).setSchema(3)
        .addPositiveSpans(span(1, 1)).addPositiveSpans(span(6, 1)).addPositiveDeltas(1).addPositiveDeltas(1)
        .setTimestamp(T2)
        .build();
    parse(WriteRequest.newBuilder().addTimeseries(series("__name__", "h").addHistograms(histogram)).build());

    assertEquals(List.of("1.0905077326652577", "2.0", "+Inf"), points.stream()
        .filter(p -> p.key().name().equals("h_bucket")).map(p -> p.key().attributes().get("le")).toList());
    assertEquals(3, Double.longBitsToDouble(points.get(points.size() - 1).valueBits()));
  }

  @Test
  void floatHistogramWithCustomBucketsAndStaleHistogram() throws Exception {
    Histogram custom = Histogram.newBuilder()
        .setCountFloat(3.5).setSum(1.75).setSchema(BucketBounds.CUSTOM_BUCKETS_SCHEMA)
        .addCustomValues(0.1).addCustomValues(1).addCustomValues(10)
        .addPositiveSpans(span(0, 4))
        .addPositiveCounts(1).addPositiveCounts(0).addPositiveCounts(2).addPositiveCounts(0.5)
        .setResetHint(Histogram.ResetHint.GAUGE)
        .setTimestamp(T1)
        .build();
    Histogram stale = Histogram.newBuilder().setCountInt(0).setSum(STALE).setTimestamp(T2).build();
    WriteRequest request = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "queue_size").addHistograms(custom).addHistograms(stale))
        .build();

    ParseResult result = parse(request);

    assertFalse(result.hasErrors(), result.errors().toString());
    long t = nanos(T1);
    assertEquals(List.of(
        point(key("queue_size_count"), t, 3.5),
        point(key("queue_size_sum"), t, 1.75),
        point(key("queue_size_bucket", "le", "0.1"), t, 1),
        point(key("queue_size_bucket", "le", "10.0"), t, 3),
        point(key("queue_size_bucket", "le", "+Inf"), t, 3.5)), points);
  }

  @Test
  void malformedHistogramsRejectTheirSeries() throws Exception {
    WriteRequest request = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "short").addHistograms(Histogram.newBuilder().setCountInt(1)
            .addPositiveSpans(span(0, 2)).addPositiveDeltas(1)))
        .addTimeseries(series("__name__", "negative").addHistograms(Histogram.newBuilder().setCountInt(1)
            .addPositiveSpans(span(0, 2)).addPositiveDeltas(1).addPositiveDeltas(-2)))
        .addTimeseries(series("__name__", "custom").addHistograms(Histogram.newBuilder().setCountFloat(1)
            .setSchema(-53).addCustomValues(1).addPositiveSpans(span(2, 1)).addPositiveCounts(1)))
        .addTimeseries(series("__name__", "with_le", "le", "1").addHistograms(Histogram.newBuilder().setCountInt(0)))
        .addTimeseries(series("__name__", "mixed").addHistograms(Histogram.newBuilder().setCountFloat(1)
            .addPositiveSpans(span(0, 1)).addPositiveDeltas(1)))
        .build();

    ParseResult result = parse(request);

    assertTrue(points.isEmpty(), points.toString());
    assertEquals(5, result.errors().size());
    assertTrue(result.errors().get(0).problem().startsWith("histogram 1: positive spans cover 2 buckets but 1 deltas"),
        result.errors().get(0).problem());
    assertTrue(result.errors().get(1).problem().contains("negative count"), result.errors().get(1).problem());
    assertTrue(result.errors().get(2).problem().contains("no custom bound"), result.errors().get(2).problem());
    assertTrue(result.errors().get(3).problem().contains("label 'le'"), result.errors().get(3).problem());
    assertTrue(result.errors().get(4).problem().contains("counts, not deltas"), result.errors().get(4).problem());
  }

  @Test
  void unreadableBodiesRejectTheWholeRequest() throws Exception {
    RemoteWriteParser parser = new RemoteWriteParser();
    MalformedBodyException notSnappy = assertThrows(MalformedBodyException.class,
        () -> parser.parse("up 1\n".getBytes(StandardCharsets.UTF_8), (k, t, v) -> points.add(null)));
    assertEquals(400, notSnappy.status());
    assertTrue(notSnappy.getMessage().contains("snappy"), notSnappy.getMessage());

    MalformedBodyException notProtobuf = assertThrows(MalformedBodyException.class,
        () -> parser.parse(Snappy.compress(new byte[] {(byte) 0xff, (byte) 0xff, 0x01}), (k, t, v) -> points.add(null)));
    assertTrue(notProtobuf.getMessage().contains("prometheus.WriteRequest"), notProtobuf.getMessage());

    byte[] large = Snappy.compress(WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "x".repeat(4000)).addSamples(sample(1, T1))).build().toByteArray());
    MalformedBodyException tooLarge = assertThrows(MalformedBodyException.class,
        () -> new RemoteWriteParser(1024).parse(large, (k, t, v) -> points.add(null)));
    assertEquals(413, tooLarge.status());
    assertTrue(points.isEmpty());
  }

  /**
   * One parser keeps its arrays for the next request: a long request, one that fails half-way (a
   * bad protobuf after good series), a shorter one, and a body given with a length shorter than
   * its array (the rest being an earlier body's bytes) each deliver exactly what a new parser
   * delivers, and the failed one nothing.
   */
  @Test
  void keptArraysCarryNothingIntoTheNextRequest() throws Exception {
    WriteRequest.Builder longRequest = WriteRequest.newBuilder();
    for (int s = 0; s < 50; s++) {
      TimeSeries.Builder one = series("__name__", "m" + s, "job", "a");
      for (int i = 0; i < 40; i++) {
        one.addSamples(sample(s * 100 + i, T1 + i * 1000L));
      }
      longRequest.addTimeseries(one);
    }
    WriteRequest shortRequest = WriteRequest.newBuilder()
        .addTimeseries(series("__name__", "up", "job", "b").addSamples(sample(7, T2))).build();
    byte[] good = longRequest.build().toByteArray();
    byte[] broken = java.util.Arrays.copyOf(good, good.length + 3);
    broken[good.length] = (byte) 0xff; // a tag that is not a field: the message is unreadable from there
    broken[good.length + 1] = (byte) 0xff;
    broken[good.length + 2] = (byte) 0x01;

    RemoteWriteParser kept = new RemoteWriteParser();
    List<Point> fromKept = new ArrayList<>();
    List<Point> fromNew = new ArrayList<>();
    PointSink toKept = (key, timestamp, value) -> fromKept.add(point(key, timestamp, value));
    PointSink toNew = (key, timestamp, value) -> fromNew.add(point(key, timestamp, value));
    byte[] longBody = Snappy.compress(good);
    kept.parse(longBody, toKept);
    new RemoteWriteParser().parse(longBody, toNew);
    assertThrows(MalformedBodyException.class, () -> kept.parse(Snappy.compress(broken), toKept));
    byte[] shortBody = Snappy.compress(shortRequest.toByteArray());
    kept.parse(shortBody, toKept);
    new RemoteWriteParser().parse(shortBody, toNew);
    byte[] inLongerArray = java.util.Arrays.copyOf(shortBody, longBody.length);
    System.arraycopy(longBody, shortBody.length, inLongerArray, shortBody.length, longBody.length - shortBody.length);
    kept.parse(inLongerArray, shortBody.length, toKept);
    new RemoteWriteParser().parse(shortBody, toNew);
    assertEquals(50 * 40 + 2, fromNew.size());
    assertEquals(fromNew, fromKept);
  }

  /**
   * Protobuf fields may come in any order, and a message may arrive in pieces that merge: samples
   * before labels, exemplars and unknown fields between them, decode as the labels-first form.
   */
  @Test
  void samplesBeforeLabelsAndUnknownFieldsDecodeAsUsual() throws Exception {
    byte[] samplesFirst = TimeSeries.newBuilder().addSamples(sample(1.5, T1)).addSamples(sample(2.5, T2))
        .addExemplars(io.chronix.ingest.protocol.prometheus.proto.Exemplar.newBuilder().setValue(9).setTimestamp(T1))
        .build().toByteArray();
    byte[] labelsAfter = series("job", "node", "__name__", "late_labels").build().toByteArray();
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
    out.writeTag(1, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(samplesFirst.length + labelsAfter.length);
    out.writeRawBytes(samplesFirst);
    out.writeRawBytes(labelsAfter);
    out.writeUInt64(99, 7); // a field this reader does not know
    out.flush();

    ParseResult result = new RemoteWriteParser().parse(Snappy.compress(bytes.toByteArray()),
        (key, timestamp, value) -> points.add(point(key, timestamp, value)));

    assertFalse(result.hasErrors(), result.errors().toString());
    assertEquals(List.of(point(key("late_labels", "job", "node"), nanos(T1), 1.5),
        point(key("late_labels", "job", "node"), nanos(T2), 2.5)), points);
  }

  @Test
  void emptyRequestIsFine() throws Exception {
    ParseResult result = parse(WriteRequest.getDefaultInstance());
    assertEquals(0, result.points());
    assertFalse(result.hasErrors());
  }
}
