package io.chronix.ingest.protocol.opentsdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.protocol.RecordingWriter;
import io.chronix.ingest.protocol.RecordingWriter.Point;
import io.chronix.ingest.protocol.ServletHarness;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenTsdbServletTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GOOD = "{\"metric\":\"sys.cpu.user\",\"timestamp\":1346846400,\"value\":18,\"tags\":{\"host\":\"web01\"}}";

  private final RecordingWriter writer = new RecordingWriter();
  private final RequestGate gate = new RequestGate();
  private ServletHarness harness;

  private ServletHarness start(BatchWriter batchWriter, long maxBytes) throws Exception {
    harness = new ServletHarness(new OpenTsdbServlet(batchWriter, gate, maxBytes, () -> 5L), "/api/put");
    return harness;
  }

  @AfterEach
  void stop() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  @Test
  void allStoredIs204() throws Exception {
    start(writer, 1 << 20);
    HttpResponse<String> response = harness.post("[" + GOOD + "," + GOOD.replace("18", "19") + "]", false);
    assertEquals(204, response.statusCode(), response.body());
    assertEquals(List.of(
        new Point(SeriesKey.metric("sys.cpu.user", Map.of("host", "web01")), 1_346_846_400_000_000_000L, 18),
        new Point(SeriesKey.metric("sys.cpu.user", Map.of("host", "web01")), 1_346_846_400_000_000_000L, 19)),
        writer.points());
    assertEquals(1, writer.writes(), "one request, one batch");
  }

  @Test
  void gzipBodies() throws Exception {
    start(writer, 1 << 20);
    assertEquals(204, harness.post(GOOD, true).statusCode());
    assertEquals(1, writer.points().size());
  }

  @Test
  void partialWriteIs400WithDetails() throws Exception {
    start(writer, 1 << 20);
    HttpResponse<String> response = harness.post("[" + GOOD + ",{\"metric\":\"x\",\"timestamp\":1,\"value\":\"abc\"}]", false);
    assertEquals(400, response.statusCode());
    JsonNode body = JSON.readTree(response.body());
    assertEquals(1, body.get("failed").asInt());
    assertEquals(1, body.get("success").asInt());
    assertEquals(2, body.get("errors").get(0).get("point").asInt());
    assertTrue(body.get("errors").get(0).get("problem").asText().contains("metric 'x': value 'abc' is not a number"));
    assertTrue(body.get("error").asText().contains("point 2"), body.get("error").asText());
    assertEquals(1, writer.points().size(), "the good point is stored");
  }

  @Test
  void malformedJsonIs400AndStoresNothing() throws Exception {
    start(writer, 1 << 20);
    HttpResponse<String> response = harness.post("[" + GOOD + ",{", false);
    assertEquals(400, response.statusCode());
    assertTrue(JSON.readTree(response.body()).get("error").asText().startsWith("body is not valid JSON"), response.body());
    assertEquals(0, writer.writes());
  }

  @Test
  void overloadIs503WithRetryAfter() throws Exception {
    start(writer, 1 << 20);
    writer.overloadNext(1);
    HttpResponse<String> response = harness.post(GOOD, false);
    assertEquals(503, response.statusCode());
    assertEquals("1", response.headers().firstValue("Retry-After").orElse(null));
    assertTrue(writer.points().isEmpty());
    assertEquals(204, harness.post(GOOD, false).statusCode(), "the resent request is stored");
    assertEquals(1, writer.points().size());
  }

  @Test
  void closedGateIs503() throws Exception {
    start(writer, 1 << 20);
    gate.close(1, TimeUnit.SECONDS);
    HttpResponse<String> response = harness.post(GOOD, false);
    assertEquals(503, response.statusCode());
    assertTrue(response.headers().firstValue("Retry-After").isPresent());
    assertEquals(0, writer.writes());
  }

  @Test
  void storageFailureIs500() throws Exception {
    start(batch -> {
      throw new IOException("disk full");
    }, 1 << 20);
    HttpResponse<String> response = harness.post(GOOD, false);
    assertEquals(500, response.statusCode());
    assertTrue(response.body().contains("disk full"));
  }

  @Test
  void tooLargeIs413AndGetIs405() throws Exception {
    start(writer, 10);
    assertEquals(413, harness.post(GOOD, false).statusCode());
    assertEquals(405, harness.get().statusCode());
  }
}
