package io.chronix.ingest.http;

import java.io.IOException;
import java.util.Map;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Whether the server is ready: every listener accepts connections and every endpoint is in place.
 * Until then the ingest endpoints, {@code /ping} included, answer 503 with Retry-After, so a
 * client that waits for {@code /ping} never meets a half-started server.
 *
 * <p>A handler around the ingest context rather than a servlet filter: the endpoints are added to
 * the running context while the server starts, and while Jetty rebuilt its mappings a request
 * could miss the filter (ReadinessTest saw one 500 among the 503s); a handler answers before any
 * mapping is looked at.
 */
public final class Readiness extends HandlerWrapper {

  private volatile boolean ready;

  public void ready() {
    ready = true;
  }

  public boolean isReady() {
    return ready;
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
      throws IOException, ServletException {
    if (ready) {
      super.handle(target, baseRequest, request, response);
      return;
    }
    baseRequest.setHandled(true);
    response.setHeader("Retry-After", "1");
    JsonResponses.send(response, 503, Map.of("error", "the server is starting"));
  }
}
