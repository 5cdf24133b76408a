package io.chronix.ingest;

import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * The requests the start's warm-up writes ({@link WriteWarmUp}): the shapes of write a server
 * meets, in many requests, since the JIT compiles what runs once a request only after some dozens
 * of calls. Line protocol as exporters and imports send it, long runs of one series at a time
 * (enough for full chunks, which the chunk writers encode and index while points still arrive),
 * and as a fleet of agents sends it, every series a point a request. Values in the number forms
 * collectors write (whole numbers, one to three decimals, negatives), timestamps in nanoseconds a
 * second or two apart, ending now. Prometheus remote write as its senders do it: each request a
 * few series with their samples in order.
 */
final class WarmUpLoad {

  /** The measurement every warm-up series has: nothing of the user's is named so in its own core. */
  static final String MEASUREMENT = "chronix_warmup";
  private static final long SECOND = 1_000_000_000L;

  private WarmUpLoad() {}

  /**
   * @param runSeries series written as long runs, {@code runPoints} points each, {@code linesPerBody}
   *     lines a request
   * @param agents agents of the fleet, each with ten series written one point a round, a round a request
   */
  static List<byte[]> bodies(int runSeries, int runPoints, int linesPerBody, int agents, int rounds, long nowNanos) {
    List<byte[]> bodies = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    int lines = 0;
    for (int s = 0; s < runSeries; s++) {
      for (int i = 0; i < runPoints; i++) {
        body.append(MEASUREMENT).append(",host=run").append(s).append(",group=g").append(s % 3)
            .append(" value=").append(value(s, i))
            .append(' ').append(nowNanos - (runPoints - i) * 2 * SECOND + (i * 7919L % 1000) * 1_000_000L).append('\n');
        if (++lines == linesPerBody) {
          bodies.add(bytes(body));
          lines = 0;
        }
      }
    }
    if (lines > 0) {
      bodies.add(bytes(body));
    }
    for (int r = 0; r < rounds; r++) {
      for (int a = 0; a < agents; a++) {
        body.append(MEASUREMENT).append(",host=agent").append(a).append(",dc=dc").append(a % 4);
        for (int m = 0; m < 10; m++) {
          body.append(m == 0 ? ' ' : ',').append('m').append(m).append('=').append(value(a * 10 + m, r));
        }
        body.append(' ').append(nowNanos - (rounds - r) * 10 * SECOND + a * 1_000_000L).append('\n');
      }
      bodies.add(bytes(body));
    }
    return bodies;
  }

  /**
   * Prometheus remote write requests (snappy-compressed protobuf {@code WriteRequest}s), {@code
   * series} series of {@code samples} samples 15 s apart, ending now; a request per {@code
   * seriesPerRequest} series.
   */
  static List<byte[]> remoteWriteBodies(int series, int samples, int seriesPerRequest, long nowMillis) {
    List<byte[]> bodies = new ArrayList<>();
    WriteRequest.Builder request = WriteRequest.newBuilder();
    for (int s = 0; s < series; s++) {
      TimeSeries.Builder timeSeries = TimeSeries.newBuilder()
          .addLabels(Label.newBuilder().setName("__name__").setValue(MEASUREMENT))
          .addLabels(Label.newBuilder().setName("instance").setValue("target" + s))
          .addLabels(Label.newBuilder().setName("job").setValue("warmup"));
      for (int i = 0; i < samples; i++) {
        timeSeries.addSamples(Sample.newBuilder().setValue(Double.parseDouble(value(s, i)))
            .setTimestamp(nowMillis - (samples - i) * 15_000L));
      }
      request.addTimeseries(timeSeries);
      if ((s + 1) % seriesPerRequest == 0 || s == series - 1) {
        try {
          bodies.add(Snappy.compress(request.build().toByteArray()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        request.clear();
      }
    }
    return bodies;
  }

  /** A value in one of the forms collectors write, by series and point. */
  private static String value(int series, int point) {
    long n = (point * 2_654_435_761L + series * 40_503L) % 100_000;
    return switch (series % 4) {
      case 0 -> Long.toString(n * 4096); // bytes, counts
      case 1 -> Double.toString(n / 100.0); // percentages
      case 2 -> Double.toString(-n / 1000.0);
      default -> Double.toString(n / 10.0);
    };
  }

  private static byte[] bytes(StringBuilder body) {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    body.setLength(0);
    return bytes;
  }
}
