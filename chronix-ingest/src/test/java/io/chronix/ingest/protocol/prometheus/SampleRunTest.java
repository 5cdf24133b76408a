package io.chronix.ingest.protocol.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.OriginFree;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/**
 * Samples read straight from the bytes ({@link SampleRun}) give what protobuf's own parser of the
 * generated {@code WriteRequest} gives, for samples in the plain form and in every other one the
 * wire allows (fields reversed, repeated or left out, unknown fields, samples between labels), and
 * a body that protobuf rejects is rejected.
 */
class SampleRunTest {

  private record Point(SeriesKey key, long timestamp, long valueBits) {}

  @Test
  void samplesInAnyEncodingDecodeAsProtobufDecodesThem() throws Exception {
    Random random = new Random(37);
    for (int round = 0; round < 300; round++) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      CodedOutputStream request = CodedOutputStream.newInstance(body);
      int seriesCount = 1 + random.nextInt(4);
      for (int s = 0; s < seriesCount; s++) {
        byte[] series = series(random, s);
        request.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        request.writeUInt32NoTag(series.length);
        request.writeRawBytes(series);
      }
      request.flush();
      byte[] raw = body.toByteArray();

      List<Point> expected = expected(WriteRequest.parseFrom(raw));
      List<Point> actual = new ArrayList<>();
      ParseResult result = new RemoteWriteParser().parse(Snappy.compress(raw), (key, timestamp, value) ->
          actual.add(new Point(OriginFree.key(key), timestamp, Double.doubleToRawLongBits(value))));
      assertFalse(result.hasErrors(), "round " + round + ": " + result.errors());
      assertEquals(expected, actual, "round " + round);
    }
  }

  /**
   * A sample whose length runs past its series, whose timestamp runs past its sample, or whose
   * value is cut short: protobuf rejects the body, and so does the parser, a series after it
   * notwithstanding.
   */
  @Test
  void aBrokenSampleRejectsTheBodyAsProtobufRejectsIt() throws Exception {
    byte[] plain = Sample.newBuilder().setValue(1.5).setTimestamp(1_700_000_000_000L).build().toByteArray();
    for (int broken = 0; broken < 3; broken++) {
      byte[] last = plain.clone();
      int length = last.length;
      switch (broken) {
        case 0 -> length += 3; // runs past the series into the next one
        case 1 -> last[last.length - 1] |= (byte) 0x80; // the timestamp's varint does not end in the sample
        default -> length = 5; // ends inside the value's eight bytes
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.writeMessage(1, Label.newBuilder().setName("__name__").setValue("m").build());
      out.writeMessage(2, Sample.newBuilder().setValue(0.5).setTimestamp(1_700_000_000_000L).build());
      out.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeUInt32NoTag(length);
      out.writeRawBytes(last, 0, Math.min(length, last.length));
      out.flush();
      byte[] raw = concat(withSeries(bytes.toByteArray()),
          withSeries(TimeSeries.newBuilder().addLabels(Label.newBuilder().setName("__name__").setValue("n"))
              .addSamples(Sample.newBuilder().setValue(2).setTimestamp(1)).build().toByteArray()));
      String what = "broken sample " + broken;
      assertThrows(InvalidProtocolBufferException.class, () -> WriteRequest.parseFrom(raw), what);
      assertThrows(MalformedBodyException.class,
          () -> new RemoteWriteParser().parse(Snappy.compress(raw), (key, timestamp, value) -> { }), what);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static byte[] withSeries(byte[] series) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    CodedOutputStream request = CodedOutputStream.newInstance(body);
    request.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    request.writeUInt32NoTag(series.length);
    request.writeRawBytes(series);
    request.flush();
    return body.toByteArray();
  }

  /** A TimeSeries' bytes: its labels before, between or after samples in assorted encodings. */
  private static byte[] series(Random random, int s) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    int samples = random.nextInt(40);
    int labelsAt = random.nextInt(samples + 1);
    for (int i = 0; i <= samples; i++) {
      if (i == labelsAt) {
        out.writeMessage(1, Label.newBuilder().setName("__name__").setValue("m" + s).build());
        out.writeMessage(1, Label.newBuilder().setName("host").setValue("h" + random.nextInt(3)).build());
      }
      if (i < samples) {
        byte[] sample = sample(random);
        out.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(sample.length);
        out.writeRawBytes(sample);
      }
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static byte[] sample(Random random) throws IOException {
    double value = switch (random.nextInt(6)) {
      case 0 -> 0.0; // left out by an encoder
      case 1 -> Double.longBitsToDouble(RemoteWriteParser.STALE_NAN_BITS);
      case 2 -> -0.0;
      default -> random.nextGaussian() * 1e6;
    };
    long millis = switch (random.nextInt(5)) {
      case 0 -> 0; // left out by an encoder
      case 1 -> -random.nextInt(1_000_000_000); // ten bytes as a varint
      default -> 1_700_000_000_000L + random.nextInt(1_000_000_000);
    };
    if (random.nextInt(4) > 0) {
      return Sample.newBuilder().setValue(value).setTimestamp(millis).build().toByteArray(); // the plain form
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    switch (random.nextInt(4)) {
      case 0 -> { // reversed
        out.writeInt64(2, millis);
        out.writeDouble(1, value);
      }
      case 1 -> { // repeated: the last one holds
        out.writeDouble(1, random.nextDouble());
        out.writeInt64(2, millis);
        out.writeDouble(1, value);
        out.writeInt64(2, millis + 1);
      }
      case 2 -> { // an unknown field between
        out.writeDouble(1, value);
        out.writeUInt64(7, random.nextLong());
        out.writeInt64(2, millis);
      }
      default -> { // a field number past 15: a tag of two bytes
        out.writeDouble(1, value);
        out.writeString(20, "x");
        out.writeInt64(2, millis);
      }
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static List<Point> expected(WriteRequest request) {
    List<Point> points = new ArrayList<>();
    for (TimeSeries series : request.getTimeseriesList()) {
      Map<String, String> attributes = new HashMap<>();
      String name = null;
      for (Label label : series.getLabelsList()) {
        if (label.getName().equals("__name__")) {
          name = label.getValue();
        } else {
          attributes.put(label.getName(), label.getValue());
        }
      }
      SeriesKey key = OriginFree.key(SeriesKey.metric(name, attributes));
      for (Sample sample : series.getSamplesList()) {
        points.add(new Point(key, sample.getTimestamp() * 1_000_000L, Double.doubleToRawLongBits(sample.getValue())));
      }
    }
    return points;
  }
}
