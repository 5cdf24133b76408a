package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/** The server's port reads bodies in large pieces, and every byte of a body arrives whatever its size. */
class HttpConnectorsTest {

  @Test
  void bodiesOfAnySizeAroundTheInputBufferArriveWhole() throws Exception {
    Server jetty = new Server();
    ServerConnector connector = HttpConnectors.create(jetty, ServerConfig.defaults().withEphemeralPorts()
        .with("http.host", "127.0.0.1"));
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.getWriter().write(digest(request.getInputStream().readAllBytes()));
      }
    }), "/digest");
    jetty.setHandler(context);
    jetty.start();
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

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
