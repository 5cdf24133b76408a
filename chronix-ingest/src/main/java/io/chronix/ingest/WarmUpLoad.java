package io.chronix.ingest;

import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.xerial.snappy.Snappy;

/**
 * The requests the start's warm-up sends ({@link StartWarmUp}): the shapes of write a server
 * meets, in many requests, since the JIT compiles what runs once a request only after some dozens
 * of calls. Line protocol as exporters and imports send it, long runs of one series at a time
 * (enough for full chunks, which the chunk writers encode and index while points still arrive),
 * and as a fleet of agents sends it, every series a point a request. Values in the number forms
 * collectors write (whole numbers, one to three decimals, negatives), timestamps in nanoseconds a
 * second or two apart, ending now. Prometheus remote write as its senders do it: each request a
 * few series with their samples in order. Then the queries dashboards ask of those series.
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

  /**
   * The queries of dashboards and analyses over the series {@link #bodies} and {@link
   * #remoteWriteBodies} wrote, as paths with their query strings: on the records' core {@code core}
   * through Solr's route (raw points, {@code max}, {@code max;avg}, outlier, trend) and through the
   * Prometheus API (ranges of one series, {@code sum by}, {@code rate}, {@code chronix_outlier}, an
   * instant {@code topk}, the listings; the warm-up posts these as forms, as Grafana does). Each
   * round moves the windows a step back, as a refreshing dashboard moves them, and asks another of
   * the run series: what runs once a request is compiled after some 60 requests, so each shape
   * comes {@code rounds} times.
   *
   * @param runSeries how many run series {@link #bodies} wrote; the windows end at {@code nowMillis}
   */
  static List<String> queries(String core, int runSeries, int rounds, long nowMillis) {
    List<String> queries = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      long end = nowMillis - r * 15_000L;
      long hour = end - 3_600_000L;
      String run = "run" + r % runSeries;
      String series = "name:" + MEASUREMENT + " AND host:\"" + run + "\" AND start:" + hour + " AND end:" + end;
      String solr = "/solr/" + core + "/query?q=" + encode(series);
      queries.add(solr + "&fl=points");
      queries.add(solr + "&fl=name&cf=" + encode("metric{max}"));
      queries.add(solr + "&fl=name&cf=" + encode("metric{max;avg}"));
      queries.add(solr + "&fl=name&cf=" + encode(r % 2 == 0 ? "metric{outlier}" : "metric{trend}"));
      String selector = MEASUREMENT + "{host=\"" + run + "\"}";
      String window = "&start=" + seconds(hour) + "&end=" + seconds(end);
      queries.add("/api/v1/query_range?query=" + encode(selector) + window + "&step=15");
      // the fleet's series, a few points each: no query here decodes more than one run series' hour
      // of points, far below any limit a server sets from its heap
      String fleet = MEASUREMENT + "_m" + r % 10;
      queries.add("/api/v1/query_range?query=" + encode("sum by (dc) (" + fleet + ")") + window + "&step=60");
      queries.add("/api/v1/query_range?query=" + encode("sum by (dc) (rate(" + fleet + "[1m]))")
          + "&start=" + seconds(end - 600_000L) + "&end=" + seconds(end) + "&step=15");
      queries.add("/api/v1/query_range?query=" + encode("chronix_outlier(" + selector + "[10m])") + window + "&step=300");
      queries.add("/api/v1/query?query=" + encode("topk(3, {job=\"warmup\"})") + "&time=" + seconds(end));
      String listing = switch (r % 3) {
        case 0 -> "/api/v1/series?match[]=" + encode(MEASUREMENT);
        case 1 -> "/api/v1/labels?";
        default -> "/api/v1/label/host/values?";
      };
      queries.add(listing + (listing.endsWith("?") ? "" : "&") + "start=" + seconds(end - 6 * 3_600_000L)
          + "&end=" + seconds(end));
    }
    return queries;
  }

  private static String seconds(long millis) {
    return millis / 1000 + "." + String.format(Locale.ROOT, "%03d", millis % 1000);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
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
