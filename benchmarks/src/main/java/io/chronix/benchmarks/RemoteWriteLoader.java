package io.chronix.benchmarks;

import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.SortedMap;
import org.xerial.snappy.Snappy;

/**
 * Sends series to any Prometheus remote-write receiver (ours and a peer alike, so both get the
 * same samples through the same protocol): requests of up to {@code samplesPerRequest} samples,
 * each series' samples in time order, as Prometheus' own queue sends them.
 */
final class RemoteWriteLoader {

  /** A series to load: labels with {@code __name__}, timestamps in milliseconds. */
  record Series(SortedMap<String, String> labels, long[] timestamps, double[] values) {}

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final URI endpoint;
  private final int samplesPerRequest;
  private WriteRequest.Builder request = WriteRequest.newBuilder();
  private int samples;
  private long sent;
  private long retries;
  /** A minute of refusals in a row: the server is not coming back. */
  private static final int MAX_RETRIES = 600;

  RemoteWriteLoader(URI endpoint, int samplesPerRequest) {
    this.endpoint = endpoint;
    this.samplesPerRequest = samplesPerRequest;
  }

  void add(Series series) throws Exception {
    int from = 0;
    while (from < series.timestamps().length) {
      int to = Math.min(series.timestamps().length, from + samplesPerRequest - samples);
      TimeSeries.Builder part = TimeSeries.newBuilder();
      for (Map.Entry<String, String> label : series.labels().entrySet()) {
        part.addLabels(Label.newBuilder().setName(label.getKey()).setValue(label.getValue()));
      }
      for (int i = from; i < to; i++) {
        part.addSamples(Sample.newBuilder().setTimestamp(series.timestamps()[i]).setValue(series.values()[i]));
      }
      request.addTimeseries(part);
      samples += to - from;
      from = to;
      if (samples == samplesPerRequest) {
        send();
      }
    }
  }

  /** Sends what is pending; returns the samples sent in all. */
  long finish() throws Exception {
    if (samples > 0) {
      send();
    }
    return sent;
  }

  /** Requests answered 429 or 503 and sent again, as Prometheus does (after a pause, here 100 ms). */
  long retries() {
    return retries;
  }

  private void send() throws Exception {
    byte[] body = Snappy.compress(request.build().toByteArray());
    HttpResponse<String> response;
    for (int attempt = 0; ; attempt++) {
      response = HTTP.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofMinutes(5))
          .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "snappy")
          .header("X-Prometheus-Remote-Write-Version", "0.1.0")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
      boolean busy = response.statusCode() == 429 || response.statusCode() == 503;
      if (!busy || attempt == MAX_RETRIES) {
        break;
      }
      retries++;
      Thread.sleep(100);
    }
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException(endpoint + " answered " + response.statusCode() + ": " + response.body());
    }
    sent += samples;
    request = WriteRequest.newBuilder();
    samples = 0;
  }
}
