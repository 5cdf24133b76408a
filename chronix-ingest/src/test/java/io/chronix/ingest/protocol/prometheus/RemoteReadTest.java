package io.chronix.ingest.protocol.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import io.chronix.ingest.protocol.prometheus.proto.LabelMatcher;
import io.chronix.ingest.protocol.prometheus.proto.Query;
import io.chronix.ingest.protocol.prometheus.proto.ReadRequest;
import io.chronix.ingest.protocol.prometheus.proto.ReadResponse;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/** Remote read: what remote write stored comes back bit for bit; bad requests get a 400 saying why. */
class RemoteReadTest {

  private static final HttpClient HTTP = TestHttp.CLIENT;
  private static final long T0 = 1_704_067_200_000L;
  /** Prometheus' stale marker: a NaN with its own bit pattern. */
  private static final double STALE = Double.longBitsToDouble(0x7ff0000000000002L);

  @TempDir static Path dataDir;
  private static ChronixServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
        .with("promql.maxSamples", "100")).start();
    PrometheusApiClient client = new PrometheusApiClient(server.baseUrl());
    long[] times = {T0, T0 + 15_000, T0 + 30_000, T0 + 45_000};
    assertEquals(204, client.remoteWrite(List.of(
        PrometheusApiClient.timeSeries(Labels.of("__name__", "up", "job", "api", "instance", "a"), times,
            new double[] {1, 0, 1, STALE}),
        PrometheusApiClient.timeSeries(Labels.of("__name__", "up", "job", "db", "instance", "b"), times,
            new double[] {1, 1, 1, 1}),
        PrometheusApiClient.timeSeries(Labels.of("__name__", "temperature", "room", "a"), times,
            new double[] {21.5, 21.25, Double.NaN, -0.0}))));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static LabelMatcher matcher(LabelMatcher.Type type, String name, String value) {
    return LabelMatcher.newBuilder().setType(type).setName(name).setValue(value).build();
  }

  private static Query query(long start, long end, LabelMatcher... matchers) {
    return Query.newBuilder().setStartTimestampMs(start).setEndTimestampMs(end).addAllMatchers(List.of(matchers)).build();
  }

  private static HttpResponse<byte[]> read(ReadRequest request) throws Exception {
    return post(Snappy.compress(request.toByteArray()));
  }

  private static HttpResponse<byte[]> post(byte[] body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v1/read"))
        .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "snappy")
        .header("X-Prometheus-Remote-Read-Version", "0.1.0")
        // as a Go client adds on its own: the snappy answer must not be compressed again
        .header("Accept-Encoding", "gzip")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static ReadResponse answer(ReadRequest request) throws Exception {
    HttpResponse<byte[]> response = read(request);
    assertEquals(200, response.statusCode(), new String(response.body()));
    assertEquals("snappy", response.headers().firstValue("Content-Encoding").orElse(""));
    return ReadResponse.parseFrom(Snappy.uncompress(response.body()));
  }

  @Test
  void samplesComeBackBitForBitPerQuery() throws Exception {
    ReadResponse response = answer(ReadRequest.newBuilder()
        .addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.EQ, "__name__", "up"),
            matcher(LabelMatcher.Type.NEQ, "job", "db")))
        .addQueries(query(T0 + 15_000, T0 + 45_000, matcher(LabelMatcher.Type.RE, "__name__", "temp.*")))
        .addAcceptedResponseTypes(ReadRequest.ResponseType.SAMPLES).build());
    assertEquals(2, response.getResultsCount());
    List<TimeSeries> up = response.getResults(0).getTimeseriesList();
    assertEquals(1, up.size());
    assertEquals("instance", up.get(0).getLabels(1).getName(), "labels sorted by name, the name first");
    List<Sample> samples = up.get(0).getSamplesList();
    assertEquals(4, samples.size());
    assertEquals(0x7ff0000000000002L, Double.doubleToRawLongBits(samples.get(3).getValue()), "the stale marker is kept");
    List<Sample> temperature = response.getResults(1).getTimeseries(0).getSamplesList();
    assertEquals(List.of(T0 + 15_000, T0 + 30_000, T0 + 45_000), temperature.stream().map(Sample::getTimestamp).toList(),
        "only samples inside the query's inclusive range");
    assertEquals(21.25, temperature.get(0).getValue());
    assertTrue(Double.isNaN(temperature.get(1).getValue()));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(temperature.get(2).getValue()));
  }

  @Test
  void negativeRegexAndNoMatch() throws Exception {
    ReadResponse response = answer(ReadRequest.newBuilder()
        .addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.EQ, "__name__", "up"),
            matcher(LabelMatcher.Type.NRE, "instance", "a|c")))
        .addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.EQ, "__name__", "nothing"))).build());
    assertEquals("b", response.getResults(0).getTimeseries(0).getLabelsList().stream()
        .filter(l -> l.getName().equals("instance")).findFirst().orElseThrow().getValue());
    assertEquals(0, response.getResults(1).getTimeseriesCount());
  }

  @Test
  void badRequestsAreRejectedWithTheReason() throws Exception {
    HttpResponse<byte[]> notSnappy = post("not snappy".getBytes());
    assertEquals(400, notSnappy.statusCode());
    assertTrue(new String(notSnappy.body()).contains("not snappy-compressed"));

    HttpResponse<byte[]> notProtobuf = post(Snappy.compress(new byte[] {(byte) 0xff, (byte) 0xff, 0x01}));
    assertEquals(400, notProtobuf.statusCode());
    assertTrue(new String(notProtobuf.body()).contains("not a prometheus.ReadRequest"));

    HttpResponse<byte[]> everything = read(ReadRequest.newBuilder()
        .addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.RE, "job", ".*"))).build());
    assertEquals(400, everything.statusCode());
    assertTrue(new String(everything.body()).contains("query 1: at least one matcher must not match the empty value"));

    HttpResponse<byte[]> badRegex = read(ReadRequest.newBuilder()
        .addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.RE, "__name__", "up("))).build());
    assertEquals(400, badRegex.statusCode());
    assertTrue(new String(badRegex.body()).startsWith("{\"error\":\"query 1: "), new String(badRegex.body()));

    HttpResponse<byte[]> chunksOnly = read(ReadRequest.newBuilder()
        .addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.EQ, "__name__", "up")))
        .addAcceptedResponseTypes(ReadRequest.ResponseType.STREAMED_XOR_CHUNKS).build());
    assertEquals(400, chunksOnly.statusCode());
    assertTrue(new String(chunksOnly.body()).contains("only the SAMPLES response type"));

    ReadRequest.Builder many = ReadRequest.newBuilder();
    for (int i = 0; i < 10; i++) {
      many.addQueries(query(T0, T0 + 60_000, matcher(LabelMatcher.Type.RE, "__name__", ".+")));
    }
    HttpResponse<byte[]> tooMany = read(many.build());
    assertEquals(400, tooMany.statusCode());
    assertTrue(new String(tooMany.body()).contains("more than 100 samples (promql.maxSamples)"));
  }
}
