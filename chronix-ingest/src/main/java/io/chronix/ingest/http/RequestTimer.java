package io.chronix.ingest.http;

import io.chronix.ingest.metrics.RequestDurations;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Times every request through the handlers it wraps (the server's outermost), into
 * {@link RequestDurations} by the route of its path. No servlet here answers asynchronously, so a
 * handler's return is the answer's end, but for bytes still on their way to the client. The
 * thread's CPU time is read around each request too (two reads of its clock, some 0.3-0.4 us each
 * here): a request's time split into work and waiting is what said where the Gatling load's tail
 * came from (docs/benchmarks.md, "A slow request's time").
 */
public final class RequestTimer extends HandlerWrapper {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

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
    long cpuStart = THREADS.getCurrentThreadCpuTime(); // -1 where the JVM cannot tell
    try {
      super.handle(target, base, request, response);
    } finally {
      long nanos = System.nanoTime() - start;
      long cpu = cpuStart < 0 ? -1 : THREADS.getCurrentThreadCpuTime() - cpuStart;
      durations.record(RequestDurations.Route.of(target), nanos, cpu);
    }
  }
}
