package io.chronix.benchmarks.load;

import io.chronix.benchmarks.VictoriaMetricsProcess;
import io.chronix.ingest.metrics.RequestDurations;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.HashMap;
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

  /** A route's line: its name (family and suffix), the route, a bucket's bound where it has one, its value. */
  private static final Pattern ROUTE_LINE = Pattern.compile(
      "^([a-z_]+)\\{route=\"([a-z_]+)\"(?:,le=\"([^\"]+)\")?} ([0-9.eE+-]+)$", Pattern.MULTILINE);
  private static final double GOAL_SECONDS = LoadReport.P99_GOAL_MS / 1000;
  /** The lines read, by the name they have in the text format. */
  private static final String BUCKETS = RequestDurations.NAME + "_bucket";
  private static final String ELAPSED = RequestDurations.NAME + "_sum";
  private static final String CPU = RequestDurations.CPU_NAME + "_total";
  private static final String SLOW = RequestDurations.SLOW_NAME + "_total";
  private static final String SLOW_CPU = RequestDurations.SLOW_CPU_NAME + "_total";

  private final Map<String, RouteTimes> routes;

  private ServerDurations(Map<String, RouteTimes> routes) {
    this.routes = routes;
  }

  /**
   * What the server's families say of one route.
   *
   * @param buckets cumulative counts by upper bound (seconds, +Inf last)
   * @param seconds all requests' seconds, their threads' CPU seconds, the slow ones' and their CPU
   *     seconds, by their lines' names (absent where the server has no such family)
   */
  private record RouteTimes(TreeMap<Double, Long> buckets, Map<String, Double> seconds) {
    RouteTimes() {
      this(new TreeMap<>(), new HashMap<>());
    }

    /**
     * {@code part}'s seconds in percent of {@code whole}'s; "-" where either is missing (a server
     * without the counters) or the whole is 0.
     */
    String share(String part, String whole) {
      Double partSeconds = seconds.get(part);
      Double wholeSeconds = seconds.get(whole);
      return partSeconds == null || wholeSeconds == null || wholeSeconds == 0 ? "-"
          : String.format(Locale.ROOT, "%.0f %%", 100 * partSeconds / wholeSeconds);
    }
  }

  public static ServerDurations none() {
    return new ServerDurations(Map.of());
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

  /**
   * The bucket lines of Prometheus' text format and the route's other lines beside them; other
   * lines are passed over. Routes without buckets are left out.
   */
  static ServerDurations parse(String text) {
    Map<String, RouteTimes> routes = new TreeMap<>();
    Matcher line = ROUTE_LINE.matcher(text);
    while (line.find()) {
      RouteTimes route = routes.computeIfAbsent(line.group(2), name -> new RouteTimes());
      double value = Double.parseDouble(line.group(4));
      if (line.group(1).equals(BUCKETS) && line.group(3) != null) {
        double bound = line.group(3).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(line.group(3));
        route.buckets().put(bound, (long) value);
      } else {
        route.seconds().put(line.group(1), value);
      }
    }
    routes.values().removeIf(route -> route.buckets().isEmpty());
    return new ServerDurations(routes);
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
    for (Map.Entry<String, RouteTimes> route : routes.entrySet()) {
      TreeMap<Double, Long> cumulative = route.getValue().buckets();
      long total = cumulative.lastEntry().getValue();
      Map.Entry<Double, Long> withinGoal = cumulative.floorEntry(GOAL_SECONDS);
      long over = total - (withinGoal == null ? 0 : withinGoal.getValue());
      out.append(String.format(Locale.ROOT, "| %s | %,d | %,d (%.2f %%) | %s | %s / %s |%n", route.getKey(), total,
          over, total == 0 ? 0 : 100.0 * over / total, p99Bound(cumulative, total),
          route.getValue().share(CPU, ELAPSED), route.getValue().share(SLOW_CPU, SLOW)));
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

  private static String trim(double ms) {
    return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
  }
}
