package io.chronix.benchmarks.load;

import io.chronix.benchmarks.VictoriaMetricsProcess;
import io.chronix.ingest.metrics.RequestDurations;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's own time over the load's requests, by route, from the histograms of its
 * {@code /metrics} ({@code chronix_http_request_duration_seconds}) read as the load ends: what of
 * the client's latencies the server's handlers account for; and, from the counters beside them, the
 * share of that time its threads were on a CPU, over all requests and over those slower than the
 * goal (a slow request mostly off a CPU waited: for a core, a lock or a pause). A server without
 * those histograms (a peer) has none.
 */
public final class ServerDurations {

  private static final Pattern BUCKET = Pattern.compile(
      "^" + RequestDurations.NAME + "_bucket\\{route=\"([a-z_]+)\",le=\"([^\"]+)\"} ([0-9.eE+-]+)$",
      Pattern.MULTILINE);
  private static final double GOAL_SECONDS = LoadReport.P99_GOAL_MS / 1000;

  /** Cumulative counts by upper bound (seconds, +Inf last), by route. */
  private final Map<String, TreeMap<Double, Long>> routes;
  /** Seconds by route: all requests', their threads' CPU; the slow ones', their threads' CPU. */
  private final Map<String, Double> elapsed;
  private final Map<String, Double> cpu;
  private final Map<String, Double> slow;
  private final Map<String, Double> slowCpu;

  private ServerDurations(Map<String, TreeMap<Double, Long>> routes, String text) {
    this.routes = routes;
    this.elapsed = seconds(text, RequestDurations.NAME + "_sum");
    this.cpu = seconds(text, RequestDurations.CPU_NAME + "_total");
    this.slow = seconds(text, RequestDurations.SLOW_NAME + "_total");
    this.slowCpu = seconds(text, RequestDurations.SLOW_CPU_NAME + "_total");
  }

  public static ServerDurations none() {
    return new ServerDurations(Map.of(), "");
  }

  /** The histograms of the server at {@code base}; none where it has none or does not answer. */
  public static ServerDurations read(URI base) {
    try {
      HttpResponse<String> response = VictoriaMetricsProcess.get(base.resolve("/metrics")); // the benchmarks' GET
      return response.statusCode() == 200 ? parse(response.body()) : none();
    } catch (IOException e) {
      return none();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return none();
    }
  }

  /** The bucket lines of Prometheus' text format; other lines are passed over. */
  static ServerDurations parse(String text) {
    Map<String, TreeMap<Double, Long>> routes = new TreeMap<>();
    Matcher bucket = BUCKET.matcher(text);
    while (bucket.find()) {
      double bound = bucket.group(2).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bucket.group(2));
      routes.computeIfAbsent(bucket.group(1), route -> new TreeMap<>())
          .put(bound, (long) Double.parseDouble(bucket.group(3)));
    }
    return new ServerDurations(routes, text);
  }

  /** The value of each route's line of one name. */
  private static Map<String, Double> seconds(String text, String name) {
    Map<String, Double> byRoute = new TreeMap<>();
    Matcher line = Pattern.compile("^" + name + "\\{route=\"([a-z_]+)\"} ([0-9.eE+-]+)$", Pattern.MULTILINE)
        .matcher(text);
    while (line.find()) {
      byRoute.put(line.group(1), Double.parseDouble(line.group(2)));
    }
    return byRoute;
  }

  public boolean isEmpty() {
    return routes.isEmpty();
  }

  /**
   * A table: each route's requests, those over the goal, the bound its 99th percentile lies under,
   * and the share of its time on a CPU, all requests and those over the goal.
   */
  public String markdown() {
    if (routes.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("| route (the server's own time, /metrics) | requests | over "
        + (int) LoadReport.P99_GOAL_MS + " ms | p99 at most | on a CPU: all / over "
        // the server's own bound for a slow request, which its counters were kept by
        + RequestDurations.SLOW_NANOS / 1_000_000 + " ms |\n|---|---|---|---|---|\n");
    for (Map.Entry<String, TreeMap<Double, Long>> route : routes.entrySet()) {
      TreeMap<Double, Long> cumulative = route.getValue();
      long total = cumulative.lastEntry().getValue();
      Map.Entry<Double, Long> withinGoal = cumulative.floorEntry(GOAL_SECONDS);
      long over = total - (withinGoal == null ? 0 : withinGoal.getValue());
      out.append(String.format(Locale.ROOT, "| %s | %,d | %,d (%.2f %%) | %s | %s / %s |%n", route.getKey(), total,
          over, total == 0 ? 0 : 100.0 * over / total, p99Bound(cumulative, total),
          share(cpu.get(route.getKey()), elapsed.get(route.getKey())),
          share(slowCpu.get(route.getKey()), slow.get(route.getKey()))));
    }
    return out.toString();
  }

  private static String p99Bound(TreeMap<Double, Long> cumulative, long total) {
    for (Map.Entry<Double, Long> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= Math.ceil(0.99 * total)) {
        return bucket.getKey().isInfinite() ? "beyond the last bound"
            : String.format(Locale.ROOT, "%s ms", trim(bucket.getKey() * 1000));
      }
    }
    return "-";
  }

  /** A part of a whole in percent; "-" where either is missing (a server without counters) or 0. */
  private static String share(Double part, Double whole) {
    return part == null || whole == null || whole == 0 ? "-"
        : String.format(Locale.ROOT, "%.0f %%", 100 * part / whole);
  }

  private static String trim(double ms) {
    return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
  }
}
