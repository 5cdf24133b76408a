package io.chronix.ingest.protocol.prometheus;

import io.chronix.ingest.TestHttp;
import io.chronix.ingest.protocol.OriginFree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class RemoteWriteServletTest {

  private static final long T = 1_700_000_000_000L;
  private static final HttpClient CLIENT = TestHttp.CLIENT;
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Stored(SeriesKey key, long timestamp, double value) {}

  private final List<Stored> stored = new CopyOnWriteArrayList<>();
  private final BatchWriter storing = batch -> {
    for (int i = 0; i < batch.size(); i++) {
      stored.add(new Stored(OriginFree.key(batch.key(i)), batch.timestamp(i), batch.value(i)));
    }
  };
  private Server server;
  private String url;

  private void start(BatchWriter writer, RequestGate gate, long maxRequestBytes) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(new RemoteWriteServlet(writer, gate, maxRequestBytes)), "/api/v1/write");
    server.setHandler(context);
    server.start();
    url = "http://127.0.0.1:" + connector.getLocalPort() + "/api/v1/write";
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  /** Posts as Prometheus does, with its headers unless {@code headers} is false. */
  private HttpResponse<String> post(byte[] body, boolean headers) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (headers) {
      request.header("Content-Encoding", "snappy")
          .header("Content-Type", "application/x-protobuf")
          .header("X-Prometheus-Remote-Write-Version", "0.1.0");
    }
    return CLIENT.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] snappy(WriteRequest request) throws IOException {
    return Snappy.compress(request.toByteArray());
  }

  private static WriteRequest goodRequest() {
    return WriteRequest.newBuilder()
        .addTimeseries(RemoteWriteParserTest.series("__name__", "up", "job", "node")
            .addSamples(RemoteWriteParserTest.sample(1, T)))
        .build();
  }

  @Test
  void storedRequestAnswers204() throws Exception {
    start(storing, new RequestGate(), 1 << 20);

    HttpResponse<String> response = post(snappy(goodRequest()), true);

    assertEquals(204, response.statusCode(), response.body());
    assertEquals(List.of(new Stored(SeriesKey.metric("up", Map.of("job", "node")), T * 1_000_000L, 1)), stored);
  }

  @Test
  void bodyWithoutHeadersIsTakenAsSnappyToo() throws Exception {
    start(storing, new RequestGate(), 1 << 20);

    assertEquals(204, post(snappy(goodRequest()), false).statusCode());
    assertEquals(1, stored.size());
  }

  @Test
  void garbageAnswers400() throws Exception {
    start(storing, new RequestGate(), 1 << 20);

    HttpResponse<String> notSnappy = post("up{job=\"node\"} 1".getBytes(StandardCharsets.UTF_8), true);
    HttpResponse<String> notProtobuf = post(Snappy.compress("not a protobuf message".getBytes(StandardCharsets.UTF_8)), true);

    assertEquals(400, notSnappy.statusCode());
    assertTrue(JSON.readTree(notSnappy.body()).get("error").asText().contains("snappy"), notSnappy.body());
    assertEquals(400, notProtobuf.statusCode());
    assertTrue(notProtobuf.body().contains("prometheus.WriteRequest"), notProtobuf.body());
    assertTrue(stored.isEmpty());
  }

  @Test
  void badSeriesAnswer400NamingThemWhileGoodOnesAreStored() throws Exception {
    start(storing, new RequestGate(), 1 << 20);
    WriteRequest request = goodRequest().toBuilder()
        .addTimeseries(RemoteWriteParserTest.series("job", "node").addSamples(RemoteWriteParserTest.sample(2, T)))
        .build();

    HttpResponse<String> response = post(snappy(request), true);

    assertEquals(400, response.statusCode());
    JsonNode body = JSON.readTree(response.body());
    assertEquals(1, body.get("rejected").asInt());
    assertEquals(1, body.get("stored").asInt());
    assertEquals(2, body.get("errors").get(0).get("series").asInt());
    assertTrue(body.get("errors").get(0).get("problem").asText().contains("__name__"), response.body());
    assertTrue(body.get("error").asText().contains("time series 2: no metric name"), response.body());
    assertEquals(1, stored.size(), "the good series is stored: Prometheus does not retry a 400");
  }

  @Test
  void overloadAnswers503WithRetryAfter() throws Exception {
    start(batch -> {
      throw new OverloadedException("memory budget used up", 7);
    }, new RequestGate(), 1 << 20);

    HttpResponse<String> response = post(snappy(goodRequest()), true);

    assertEquals(503, response.statusCode());
    assertEquals("7", response.headers().firstValue("Retry-After").orElse(null));
  }

  @Test
  void closedGateAnswers503() throws Exception {
    RequestGate gate = new RequestGate();
    gate.close(1, TimeUnit.SECONDS);
    start(storing, gate, 1 << 20);

    HttpResponse<String> response = post(snappy(goodRequest()), true);

    assertEquals(503, response.statusCode());
    assertTrue(response.headers().firstValue("Retry-After").isPresent());
    assertTrue(stored.isEmpty());
  }

  @Test
  void oversizedAndForeignBodiesAreRefused() throws Exception {
    start(storing, new RequestGate(), 2048);
    WriteRequest huge = WriteRequest.newBuilder()
        .addTimeseries(RemoteWriteParserTest.series("__name__", "n".repeat(10_000))
            .addSamples(RemoteWriteParserTest.sample(1, T)))
        .build();

    assertEquals(413, post(snappy(huge), true).statusCode(), "small when compressed, too large once decompressed");
    assertEquals(413, post(new byte[4096], true).statusCode());

    HttpRequest gzip = HttpRequest.newBuilder(URI.create(url)).header("Content-Encoding", "gzip")
        .POST(HttpRequest.BodyPublishers.ofByteArray(snappy(goodRequest()))).build();
    assertEquals(415, CLIENT.send(gzip, HttpResponse.BodyHandlers.ofString()).statusCode());

    HttpRequest v2 = HttpRequest.newBuilder(URI.create(url)).header("Content-Encoding", "snappy")
        .header("Content-Type", "application/x-protobuf;proto=io.prometheus.write.v2.Request")
        .POST(HttpRequest.BodyPublishers.ofByteArray(snappy(goodRequest()))).build();
    assertEquals(415, CLIENT.send(v2, HttpResponse.BodyHandlers.ofString()).statusCode());
    assertTrue(stored.isEmpty());
  }
}
