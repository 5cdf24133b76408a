package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.config.ServerConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write requests in flight are bounded; the ones beyond wait and then get 503. */
class WriteLimitTest {

  @TempDir Path dataDir;

  @Test
  void aFullWriteSlotQueuesThenRefuses() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("http.maxConcurrentWrites", "1")
        .with("http.writeQueueTimeout", "300ms")).start()) {
      URI base = URI.create(server.baseUrl());
      String line = "slow value=1 1\n";
      try (Socket slow = new Socket(base.getHost(), base.getPort())) {
        OutputStream out = slow.getOutputStream();
        out.write(("POST /write?precision=s HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: "
            + line.length() + "\r\n\r\n" + line.substring(0, 4)).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(300); // the slow request now holds the only slot, reading its body

        HttpResponse<String> refused = TestHttp.post(server.baseUrl() + "/write?precision=s", "fast value=1 1", false);
        assertEquals(503, refused.statusCode(), refused.body());

        out.write(line.substring(4).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String status = new BufferedReader(new InputStreamReader(slow.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertTrue(status.contains(" 204 "), status);
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=s", "fast value=1 1", false).statusCode(),
          "the slot is free again");
    }
  }

  @Test
  void errorsTheContainerAnswersItselfAreJson() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      HttpResponse<String> missing = TestHttp.get(server.baseUrl() + "/no/such/path");
      assertEquals(404, missing.statusCode());
      assertTrue(missing.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
          missing.headers().map().toString());
      assertEquals("{\"error\":\"Not Found\"}", missing.body());
    }
  }
}
