package io.chronix.ingest.protocol;

import io.chronix.ingest.TestHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;
import javax.servlet.http.HttpServlet;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/** One servlet in a bare Jetty on a free local port, and a client to call it. */
public final class ServletHarness implements AutoCloseable {

  private static final HttpClient CLIENT = TestHttp.CLIENT;

  private final Server server;
  private final String url;

  public ServletHarness(HttpServlet servlet, String path) throws Exception {
    this(servlet, path, context -> context);
  }

  /** With the servlet's context wrapped as the server wraps its own (compression, say). */
  public ServletHarness(HttpServlet servlet, String path, UnaryOperator<Handler> around) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(servlet), path);
    server.setHandler(around.apply(context));
    server.start();
    url = "http://127.0.0.1:" + connector.getLocalPort() + path;
  }

  public HttpResponse<String> post(String body, boolean gzip) throws IOException, InterruptedException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json");
    if (gzip) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
        zip.write(bytes);
      }
      bytes = out.toByteArray();
      request.header("Content-Encoding", "gzip");
    }
    return CLIENT.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The servlet's address. */
  public String url() {
    return url;
  }

  public HttpResponse<String> get() throws IOException, InterruptedException {
    return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
