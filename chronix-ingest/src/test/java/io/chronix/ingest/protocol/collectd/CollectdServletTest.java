package io.chronix.ingest.protocol.collectd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.protocol.RecordingWriter;
import io.chronix.ingest.protocol.ServletHarness;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CollectdServletTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RecordingWriter writer = new RecordingWriter();
  private final RequestGate gate = new RequestGate();
  private ServletHarness harness;

  @BeforeEach
  void start() throws Exception {
    harness = new ServletHarness(new CollectdServlet(writer, gate, 1 << 20, () -> 5L), "/collectd");
  }

  @AfterEach
  void stop() throws Exception {
    harness.close();
  }

  @Test
  void allStoredIs204() throws Exception {
    HttpResponse<String> response = harness.post("[" + CollectdJsonParserTest.CPU + "," + CollectdJsonParserTest.LOAD + "]", true);
    assertEquals(204, response.statusCode(), response.body());
    assertEquals(3, writer.points().size());
    assertEquals(1, writer.writes());
  }

  @Test
  void badValueListIs400NamingItsPosition() throws Exception {
    String bad = CollectdJsonParserTest.CPU.replace("[1901474177]", "[1,2]");
    HttpResponse<String> response = harness.post("[" + CollectdJsonParserTest.LOAD + "," + bad + "]", false);
    assertEquals(400, response.statusCode());
    JsonNode body = JSON.readTree(response.body());
    assertEquals(1, body.get("failed").asInt());
    assertEquals(2, body.get("success").asInt());
    assertEquals(2, body.get("errors").get(0).get("value_list").asInt());
    assertTrue(body.get("error").asText().contains("value list 2: leeloo.octo.it/cpu-0/cpu-idle"), body.get("error").asText());
    assertEquals(2, writer.points().size());
  }

  @Test
  void malformedIs400() throws Exception {
    HttpResponse<String> response = harness.post("{\"values\":", false);
    assertEquals(400, response.statusCode());
    assertEquals(0, writer.writes());
  }

  @Test
  void overloadAndShutdownAre503() throws Exception {
    writer.overloadNext(1);
    HttpResponse<String> response = harness.post("[" + CollectdJsonParserTest.CPU + "]", false);
    assertEquals(503, response.statusCode());
    assertTrue(response.headers().firstValue("Retry-After").isPresent());
    gate.close(1, TimeUnit.SECONDS);
    assertEquals(503, harness.post("[" + CollectdJsonParserTest.CPU + "]", false).statusCode());
    assertTrue(writer.points().isEmpty());
  }
}
