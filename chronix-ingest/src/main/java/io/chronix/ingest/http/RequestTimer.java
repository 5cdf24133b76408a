package io.chronix.ingest.http;

import io.chronix.ingest.metrics.RequestDurations;
import java.io.IOException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Times every request through the handlers it wraps (the server's outermost), into
 * {@link RequestDurations} by the route of its path. No servlet here answers asynchronously, so a
 * handler's return is the answer's end, but for bytes still on their way to the client.
 */
public final class RequestTimer extends HandlerWrapper {

  private final RequestDurations durations;

  private RequestTimer(RequestDurations durations) {
    this.durations = durations;
  }

  /** {@code handler}, timed. */
  public static RequestTimer around(Handler handler, RequestDurations durations) {
    RequestTimer timer = new RequestTimer(durations);
    timer.setHandler(handler);
    return timer;
  }

  @Override
  public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
      throws IOException, ServletException {
    long start = System.nanoTime();
    try {
      super.handle(target, base, request, response);
    } finally {
      durations.record(RequestDurations.Route.of(target), System.nanoTime() - start);
    }
  }
}
