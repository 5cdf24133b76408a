package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * The server's port reads bodies in large pieces, and every byte of a body arrives whatever its
 * size; an answer up to the output buffer's size goes out whole, with its length.
 */
class HttpConnectorsTest {

  @Test
  void bodiesOfAnySizeAroundTheInputBufferArriveWhole() throws Exception {
    Server jetty = new Server();
    ServerConnector connector = serving(jetty, "/digest", new HttpServlet() {
      @Override
      protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.getWriter().write(digest(request.getInputStream().readAllBytes()));
      }
    });
    try {
      assertEquals(HttpConnectors.INPUT_BUFFER_BYTES,
          connector.getConnectionFactory(HttpConnectionFactory.class).getInputBufferSize());
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      Random random = new Random(7);
      int buffer = HttpConnectors.INPUT_BUFFER_BYTES;
      for (int size : new int[] {0, 1, buffer - 1, buffer, buffer + 1, 3 * buffer + 17, 1_500_000}) {
        byte[] body = new byte[size];
        random.nextBytes(body);
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/digest"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), size + " bytes");
        assertEquals(digest(body), answer.body(), size + " bytes");
      }
    } finally {
      jetty.stop();
    }
  }

  /**
   * Written as Solr's writers write an answer (a start, the points' bytes at once, an end), an
   * answer smaller than the output buffer arrives with a Content-Length, not chunked; a larger one is
   * streamed, whole. The buffers come from a pool that keeps buffers of that size.
   */
  @Test
  void answersThatFitTheOutputBufferGoOutWholeWithTheirLength() throws Exception {
    Random random = new Random(11);
    byte[] all = new byte[3 * HttpConnectors.OUTPUT_BUFFER_BYTES];
    random.nextBytes(all);
    Server jetty = new Server();
    ServerConnector connector = serving(jetty, "/answer", new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int size = Integer.parseInt(request.getParameter("size"));
        var out = response.getOutputStream();
        out.write(all, 0, 100);
        out.write(all, 100, size - 200);
        out.write(all, size - 100, 100);
      }
    });
    try {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      int buffer = HttpConnectors.OUTPUT_BUFFER_BYTES;
      for (int size : new int[] {300, 50_045, buffer - 1, buffer + 1, 2 * buffer + 7}) {
        HttpResponse<byte[]> answer = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/answer?size=" + size)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, answer.statusCode(), size + " bytes");
        assertArrayEquals(Arrays.copyOf(all, size), answer.body(), size + " bytes");
        boolean chunked = answer.headers().firstValue("Transfer-Encoding").orElse("").contains("chunked");
        if (size < buffer) { // a full buffer goes out as the first part of a stream
          assertEquals(String.valueOf(size), answer.headers().firstValue("Content-Length").orElse("none"),
              size + " bytes: one write, with its length");
          assertFalse(chunked, size + " bytes: not chunked");
        } else {
          assertTrue(chunked, size + " bytes: streamed");
        }
      }
      ByteBufferPool pool = connector.getByteBufferPool();
      ByteBuffer taken = pool.acquire(buffer, true);
      pool.release(taken);
      ByteBuffer again = pool.acquire(buffer, true);
      pool.release(again);
      assertSame(taken, again, "a buffer of the output buffer's size is kept for the next answer, not allocated anew");
    } finally {
      jetty.stop();
    }
  }

  /** {@code jetty} started with the server's connector and {@code servlet} at {@code path}. */
  private static ServerConnector serving(Server jetty, String path, HttpServlet servlet) throws Exception {
    ServerConnector connector = HttpConnectors.create(jetty, ServerConfig.defaults().withEphemeralPorts()
        .with("http.host", "127.0.0.1"));
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(servlet), path);
    jetty.setHandler(context);
    jetty.start();
    return connector;
  }

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
