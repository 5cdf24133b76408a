package io.chronix.ingest.http;

import java.io.IOException;
import java.util.Map;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletResponse;

/**
 * Whether the server is ready: every listener accepts connections and every endpoint is in place.
 * Until then the ingest endpoints, {@code /ping} included, answer 503 with Retry-After, so a
 * client that waits for {@code /ping} never meets a half-started server.
 */
public final class Readiness implements Filter {

  private volatile boolean ready;

  public void ready() {
    ready = true;
  }

  public boolean isReady() {
    return ready;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (ready) {
      chain.doFilter(request, response);
      return;
    }
    HttpServletResponse http = (HttpServletResponse) response;
    http.setHeader("Retry-After", "1");
    JsonResponses.send(http, 503, Map.of("error", "the server is starting"));
  }
}
