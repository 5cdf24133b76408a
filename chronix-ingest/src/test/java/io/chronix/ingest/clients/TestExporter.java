package io.chronix.ingest.clients;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scrape target for a real Prometheus in tests: counters (one of them resets), gauges, integer
 * gauges, a classic histogram, a summary, a series that comes and goes (so Prometheus writes stale
 * markers) and a gauge that is NaN at times. Every scrape advances the values deterministically.
 */
final class TestExporter implements AutoCloseable {

  private static final String[] METHODS = {"GET", "POST"};
  private static final String[] CODES = {"200", "500"};
  private static final String[] HANDLERS = {"/a", "/b"};
  private static final String[] ROOMS = {"a", "b", "c"};
  private static final double[] BOUNDS = {0.05, 0.1, 0.25, 0.5, 1, 2.5};

  /**
   * The histogram's process has run for a while before the first scrape. A counter whose first
   * sample lies about one scrape interval's worth of increase above zero is where Prometheus 2's
   * and 3's rate extrapolation differ (2 checks the zero point before capping the start gap,
   * 3 after); the engine follows 3, the test compares with 2.42.
   */
  private static final int PROCESS_AGE_SCRAPES = 10;

  private final HttpServer server;
  private final AtomicInteger scrapes = new AtomicInteger();

  TestExporter() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/metrics", exchange -> {
      byte[] body = render(scrapes.getAndIncrement()).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  int scrapes() {
    return scrapes.get();
  }

  static String render(int n) {
    StringBuilder out = new StringBuilder();
    out.append("# TYPE test_requests_total counter\n");
    int series = 0;
    for (String method : METHODS) {
      for (String code : CODES) {
        for (String handler : HANDLERS) {
          series++;
          long value = (long) series * 3 * n + series * 7L;
          if (series == 5 && n >= 40) {
            value = (long) series * (n - 40); // a restarted process: the counter starts again
          }
          out.append(String.format(Locale.ROOT, "test_requests_total{method=\"%s\",code=\"%s\",handler=\"%s\"} %d%n",
              method, code, handler, value));
        }
      }
    }
    out.append("# TYPE test_temperature_celsius gauge\n");
    for (int r = 0; r < ROOMS.length; r++) {
      double value = 20 + 10 * r + 5 * Math.sin(n / 7.0 + r);
      out.append(String.format(Locale.ROOT, "test_temperature_celsius{room=\"%s\"} %.3f%n", ROOMS[r], value));
    }
    out.append("# TYPE test_queue_length gauge\n");
    out.append("test_queue_length{queue=\"q1\"} ").append((n * 3) % 17).append('\n');
    out.append("test_queue_length{queue=\"q2\"} ").append((n * 5) % 23 + 1).append('\n');
    out.append("# TYPE test_latency_seconds histogram\n");
    for (int h = 0; h < HANDLERS.length; h++) {
      long cumulative = 0;
      for (int b = 0; b < BOUNDS.length; b++) {
        cumulative += (long) (b + 1) * (n + PROCESS_AGE_SCRAPES) * (h + 1);
        out.append(String.format(Locale.ROOT, "test_latency_seconds_bucket{handler=\"%s\",le=\"%s\"} %d%n",
            HANDLERS[h], BOUNDS[b], cumulative));
      }
      cumulative += (long) (n + PROCESS_AGE_SCRAPES) * (h + 1);
      out.append(String.format(Locale.ROOT, "test_latency_seconds_bucket{handler=\"%s\",le=\"+Inf\"} %d%n",
          HANDLERS[h], cumulative));
      out.append(String.format(Locale.ROOT, "test_latency_seconds_sum{handler=\"%s\"} %.3f%n", HANDLERS[h], cumulative * 0.42));
      out.append(String.format(Locale.ROOT, "test_latency_seconds_count{handler=\"%s\"} %d%n", HANDLERS[h], cumulative));
    }
    out.append("# TYPE test_rpc_seconds summary\n");
    out.append(String.format(Locale.ROOT, "test_rpc_seconds{quantile=\"0.5\"} %.4f%n", 0.1 + (n % 10) / 100.0));
    out.append(String.format(Locale.ROOT, "test_rpc_seconds{quantile=\"0.9\"} %.4f%n", 0.3 + (n % 7) / 100.0));
    out.append(String.format(Locale.ROOT, "test_rpc_seconds{quantile=\"0.99\"} %.4f%n", 0.9 + (n % 5) / 100.0));
    out.append("test_rpc_seconds_sum ").append(n * 2.5).append('\n');
    out.append("test_rpc_seconds_count ").append(n * 10).append('\n');
    if ((n / 15) % 2 == 0) {
      out.append("# TYPE test_flapping gauge\n");
      out.append("test_flapping{kind=\"comes_and_goes\"} ").append(n).append('\n');
    }
    out.append("# TYPE test_sometimes_nan gauge\n");
    out.append("test_sometimes_nan ").append(n % 5 == 0 ? "NaN" : String.valueOf(n % 9)).append('\n');
    return out.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
