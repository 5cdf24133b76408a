package io.chronix.benchmarks;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * {@code benchmarks/run RollupBenchmark [--quick]}: a 30-day dashboard over synthetic series
 * (one point every 30 s per series) with rollup tiers 5m and 1h: the same downsample queries read
 * and PromQL range queries read from the tier and from the records ({@code chronix.rollups=false})
 * in one run, medians of alternating rounds, the speed-up printed and written to docs/benchmarks.md.
 */
public final class RollupBenchmark {

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final long DAY = 86_400_000L;
  private static final String BEGIN = "<!-- rollups: benchmarks/run RollupBenchmark -->\n";
  private static final String END = "<!-- end of rollups -->\n";

  public static void main(String[] args) throws Exception {
    boolean quick = Arrays.asList(args).contains("--quick");
    int seriesCount = quick ? 4 : 20;
    int days = 30;
    int rounds = quick ? 5 : 15;
    Path dir = Files.createTempDirectory("chronix-rollup-bench");
    long end = System.currentTimeMillis() / DAY * DAY;
    long start = end - days * DAY;
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("rollup.tiers", "5m,1h").with("retention.default", "forever")).start()) {
      long points = load(server, seriesCount, start, end);
      String range = "start:" + start + " AND end:" + (end - 1);
      // series queries of the Chronix plugin, and PromQL range queries over the same 30 days
      List<String[]> dashboards = List.of(
          new String[] {"avg per hour, every series", "metric{downsample:1,hours,avg}"},
          new String[] {"max per 6 hours, every series", "metric{downsample:6,hours,max}"},
          new String[] {"count per 5 minutes, every series", "metric{downsample:5,minutes,count}"},
          new String[] {"PromQL query_range, step 1h", "avg_over_time(dash_cpu[1h])"},
          new String[] {"PromQL query_range, step 6h", "max_over_time(dash_cpu[6h])"},
          new String[] {"PromQL query_range, step 5m", "dash_cpu"});
      StringBuilder table = new StringBuilder("| query (30 days, " + seriesCount + " series, " + String.format("%,d", points)
          + " points) | from the tier, median ms | from the records, median ms | speed-up |\n|---|---|---|---|\n");
      for (String[] dashboard : dashboards) {
        double[] tier = new double[rounds];
        double[] raw = new double[rounds];
        HttpRequest fromTier = request(server, dashboard, range, start, end, true);
        HttpRequest fromRecords = request(server, dashboard, range, start, end, false);
        for (int warm = 0; warm < 3; warm++) {
          time(fromTier, true);
          time(fromRecords, false);
        }
        for (int r = 0; r < rounds; r++) {
          tier[r] = time(fromTier, true);
          raw[r] = time(fromRecords, false);
        }
        double t = median(tier);
        double w = median(raw);
        String row = String.format("| `%s` (%s) | %.1f | %.1f | %.1fx |%n", dashboard[1], dashboard[0], t, w, w / t);
        System.out.print(row);
        table.append(row);
      }
      String section = table + "\nOne JVM, the embedded node, tiers 5m and 1h (`rollup.tiers=5m,1h`), "
          + rounds + " alternating rounds after 3 warm-up rounds each, on this 2-core machine; PromQL from the tier "
          + "against `chronix.rollups=false`. The tier's answers equal the records' (RollupQueryTest, "
          + "RollupPromQlTest).\n";
      if (!quick) {
        MarkedSection.write(Path.of("docs/benchmarks.md"), BEGIN, END, section,
            "## Rollups: a 30-day dashboard from the tiers and from the records\n\n");
      }
    }
  }

  /** One series per host, a point every 30 s with a daily shape and noise, through the JSON-lines import. */
  private static long load(ChronixServer server, int seriesCount, long start, long end) throws Exception {
    Random random = new Random(42);
    long points = 0;
    for (int s = 0; s < seriesCount; s++) {
      for (long dayStart = start; dayStart < end; dayStart += DAY) {
        StringBuilder values = new StringBuilder();
        StringBuilder times = new StringBuilder();
        for (long t = dayStart; t < dayStart + DAY; t += 30_000) {
          double value = 50 + 30 * Math.sin(2 * Math.PI * (t % DAY) / DAY) + random.nextGaussian() * 5;
          values.append(values.length() == 0 ? "" : ",").append(Math.round(value * 100) / 100.0);
          times.append(times.length() == 0 ? "" : ",").append(t);
          points++;
        }
        String line = "{\"metric\":{\"__name__\":\"dash_cpu\",\"host\":\"h" + s + "\"},\"values\":[" + values
            + "],\"timestamps\":[" + times + "]}\n";
        send(server, "/api/v1/import", line);
      }
    }
    send(server, "/flush", "");
    return points;
  }

  /** A dashboard's query: a Chronix series query ({@code cf}) or a PromQL range query (its step in the description). */
  private static HttpRequest request(ChronixServer server, String[] dashboard, String range, long start, long end,
      boolean rollups) {
    if (!dashboard[0].startsWith("PromQL")) {
      return HttpRequest.newBuilder(URI.create(server.solrUrl() + "/chronix/query?wt=json&cj=name,host&fl=host,points&q="
          + URLEncoder.encode("name:dash_cpu AND " + range, StandardCharsets.UTF_8) + "&cf="
          + URLEncoder.encode(dashboard[1], StandardCharsets.UTF_8) + "&chronix.rollups=" + rollups)).build();
    }
    String step = dashboard[0].substring(dashboard[0].lastIndexOf(' ') + 1);
    String form = "query=" + URLEncoder.encode(dashboard[1], StandardCharsets.UTF_8) + "&start=" + start / 1000
        + "&end=" + end / 1000 + "&step=" + step + "&chronix.rollups=" + rollups;
    return HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v1/query_range"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build();
  }

  /** Milliseconds to the whole answer; it must say whether a tier answered, as asked. */
  private static double time(HttpRequest request, boolean rollups) throws Exception {
    long started = System.nanoTime();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    double millis = (System.nanoTime() - started) / 1e6;
    boolean fromTier = response.body().contains("chronixRollup")
        || response.headers().firstValue("X-Chronix-Rollup").isPresent();
    if (response.statusCode() != 200 || rollups != fromTier) {
      throw new IllegalStateException(request.uri() + " (rollups " + rollups + ") answered " + response.statusCode()
          + ": " + response.body().substring(0, Math.min(300, response.body().length())));
    }
    return millis;
  }

  private static void send(ChronixServer server, String path, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 204) {
      throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
