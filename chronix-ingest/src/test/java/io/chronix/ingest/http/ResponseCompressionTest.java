package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.ingest.TestHttp;
import io.chronix.ingest.protocol.ServletHarness;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which answers the server compresses: large ones a client accepts gzip for, not small ones, not encoded ones. */
class ResponseCompressionTest {

  private static final HttpClient HTTP = TestHttp.CLIENT;
  private static final byte[] LARGE = new byte[8_192];
  private static final byte[] SMALL = "{\"status\":\"success\"}".getBytes();
  private static ServletHarness server;

  @BeforeAll
  static void start() throws Exception {
    new Random(1).nextBytes(LARGE);
    for (int i = 0; i < LARGE.length; i += 2) {
      LARGE[i] = 'x'; // half of it compressible
    }
    server = new ServletHarness(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest request, HttpServletResponse response) throws java.io.IOException {
        String answer = request.getParameter("answer");
        if (answer.equals("encoded")) {
          response.setContentType("application/x-protobuf");
          response.setHeader("Content-Encoding", "snappy");
        } else {
          response.setContentType("application/json");
        }
        response.getOutputStream().write(answer.equals("small") ? SMALL : LARGE);
      }
    }, "/answer", ResponseCompression::around);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void largeAnswersGzippedForClientsThatAcceptItByGetAndPost() throws Exception {
    for (String method : new String[] {"GET", "POST"}) {
      HttpResponse<byte[]> zipped = ask("large", method, true);
      assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""), method);
      assertArrayEquals(LARGE, new GZIPInputStream(new ByteArrayInputStream(zipped.body())).readAllBytes());
    }
    HttpResponse<byte[]> plain = ask("large", "GET", false);
    assertEquals("", plain.headers().firstValue("Content-Encoding").orElse(""));
    assertArrayEquals(LARGE, plain.body());
  }

  @Test
  void smallAndEncodedAnswersAsTheyAre() throws Exception {
    HttpResponse<byte[]> small = ask("small", "POST", true);
    assertEquals("", small.headers().firstValue("Content-Encoding").orElse(""));
    assertArrayEquals(SMALL, small.body());
    HttpResponse<byte[]> encoded = ask("encoded", "POST", true);
    assertEquals("snappy", encoded.headers().firstValue("Content-Encoding").orElse(""));
    assertArrayEquals(LARGE, encoded.body());
  }

  private static HttpResponse<byte[]> ask(String answer, String method, boolean acceptGzip) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + "?answer=" + answer))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (acceptGzip) {
      request.header("Accept-Encoding", "gzip");
    }
    HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode());
    return response;
  }
}
