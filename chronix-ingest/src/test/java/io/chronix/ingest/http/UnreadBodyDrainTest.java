package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.ingest.TestHttp;
import io.chronix.ingest.protocol.ServletHarness;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import javax.servlet.DispatcherType;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlets.QoSFilter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client still sending a body the server refused unread gets the refusal, not a reset: every one
 * of many large posts answered before a byte of them was read; bodies read by their handlers, and
 * those of requests suspended for later, are left alone.
 */
class UnreadBodyDrainTest {

  private static final AtomicLong READ = new AtomicLong();
  private static ServletHarness server;

  @BeforeAll
  static void start() throws Exception {
    server = new ServletHarness(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getPathInfo().equals("/refuse")) {
          JsonResponses.error(response, 413, "request body exceeds 1000 bytes"); // sent and closed
          return;
        }
        if (request.getPathInfo().equals("/refuse-buffered")) {
          response.setStatus(413);
          response.getWriter().write("too large"); // still in the buffer as the handler returns
          return;
        }
        if (request.getPathInfo().equals("/slow")) {
          sleep(); // holds the QoS filter's one place while the next request is suspended
        }
        int length = request.getInputStream().readAllBytes().length;
        READ.addAndGet(length);
        response.setStatus(length == request.getContentLength() ? 204 : 500);
      }
    }, "/body/*", context -> {
      // one request at a time on /slow, as the server limits its write paths: a second is suspended
      FilterHolder qos = new FilterHolder(QoSFilter.class);
      qos.setInitParameter("maxRequests", "1");
      qos.setInitParameter("waitMs", "1");
      ((ServletContextHandler) context).addFilter(qos, "/body/slow", EnumSet.of(DispatcherType.REQUEST));
      return UnreadBodyDrain.around(context);
    });
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void refusedBodiesUnderTheBoundGetTheirAnswer() throws Exception {
    byte[] body = new byte[UnreadBodyDrain.MAX_DRAINED_BYTES - 1];
    for (int i = 0; i < 40; i++) {
      HttpResponse<String> refused = post("/refuse", body);
      assertEquals(413, refused.statusCode(), "post " + i);
      assertEquals("{\"error\":\"request body exceeds 1000 bytes\"}", refused.body());
    }
    for (int i = 0; i < 10; i++) {
      HttpResponse<String> buffered = post("/refuse-buffered", body);
      assertEquals(413, buffered.statusCode(), "post " + i);
      assertEquals("", buffered.headers().firstValue("Connection").orElse(""), "drained: the connection is kept");
    }
  }

  @Test
  void refusedChunkedBodiesGetTheirAnswer() throws Exception {
    byte[] body = new byte[UnreadBodyDrain.MAX_DRAINED_BYTES / 2];
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> refused = TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(url("/refuse-buffered")))
          .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build(),
          HttpResponse.BodyHandlers.ofString()); // no length: sent chunked
      assertEquals(413, refused.statusCode(), "post " + i);
      assertEquals("", refused.headers().firstValue("Connection").orElse(""), "drained: the connection is kept");
    }
  }

  @Test
  void aBodyReadByItsHandlerIsLeftAlone() throws Exception {
    long before = READ.get();
    assertEquals(204, post("/read", new byte[300_000]).statusCode());
    assertEquals(300_000, READ.get() - before, "the handler read the whole body");
  }

  @Test
  void aBodyOverTheBoundClosesTheConnectionAndTheNextRequestStillAnswers() throws Exception {
    try {
      HttpResponse<String> refused = post("/refuse-buffered", new byte[UnreadBodyDrain.MAX_DRAINED_BYTES * 4]);
      assertEquals(413, refused.statusCode()); // when the client reads it before the close
      assertEquals("close", refused.headers().firstValue("Connection").orElse(""));
    } catch (IOException reset) {
      // the answer lost to the close: what a body over the bound risks
    }
    assertEquals(204, post("/read", new byte[10]).statusCode());
  }

  @Test
  void aSuspendedRequestKeepsItsBody() throws Exception {
    byte[] body = new byte[100_000];
    CompletableFuture<HttpResponse<String>> first = TestHttp.CLIENT.sendAsync(HttpRequest.newBuilder(
        URI.create(url("/slow"))).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    Thread.sleep(100);
    HttpResponse<String> second = post("/slow", body); // suspended until the first is done
    assertEquals(204, first.get().statusCode());
    assertEquals(204, second.statusCode(), "the suspended request read its whole body");
  }

  private static HttpResponse<String> post(String path, byte[] body) throws IOException, InterruptedException {
    return TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(url(path)))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String url(String path) {
    return server.url().replace("/*", path);
  }

  private static void sleep() {
    try {
      Thread.sleep(300);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
