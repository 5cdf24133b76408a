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
 * from the tier and from the records ({@code chronix.rollups=false}) in one run, medians of
 * alternating rounds, the speed-up printed and written to docs/benchmarks.md.
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
      List<String[]> dashboards = List.of(
          new String[] {"avg per hour, every series", "metric{downsample:1,hours,avg}"},
          new String[] {"max per 6 hours, every series", "metric{downsample:6,hours,max}"},
          new String[] {"count per 5 minutes, every series", "metric{downsample:5,minutes,count}"});
      StringBuilder table = new StringBuilder("| query (30 days, " + seriesCount + " series, " + String.format("%,d", points)
          + " points) | from the tier, median ms | from the records, median ms | speed-up |\n|---|---|---|---|\n");
      for (String[] dashboard : dashboards) {
        double[] tier = new double[rounds];
        double[] raw = new double[rounds];
        for (int warm = 0; warm < 3; warm++) {
          time(server, range, dashboard[1], true);
          time(server, range, dashboard[1], false);
        }
        for (int r = 0; r < rounds; r++) {
          tier[r] = time(server, range, dashboard[1], true);
          raw[r] = time(server, range, dashboard[1], false);
        }
        double t = median(tier);
        double w = median(raw);
        String row = String.format("| `%s` (%s) | %.1f | %.1f | %.1fx |%n", dashboard[1], dashboard[0], t, w, w / t);
        System.out.print(row);
        table.append(row);
      }
      String section = table + "\nOne JVM, the embedded node, tiers 5m and 1h (`rollup.tiers=5m,1h`), "
          + rounds + " alternating rounds after 3 warm-up rounds each, on this 2-core machine. The tier's answers equal "
          + "the records' (RollupQueryTest).\n";
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

  private static double time(ChronixServer server, String range, String cf, boolean rollups) throws Exception {
    String url = server.solrUrl() + "/chronix/query?wt=json&cj=name,host&fl=host,points&q="
        + URLEncoder.encode("name:dash_cpu AND " + range, StandardCharsets.UTF_8) + "&cf="
        + URLEncoder.encode(cf, StandardCharsets.UTF_8) + "&chronix.rollups=" + rollups;
    long started = System.nanoTime();
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
    double millis = (System.nanoTime() - started) / 1e6;
    if (response.statusCode() != 200 || rollups != response.body().contains("chronixRollup")) {
      throw new IllegalStateException("query " + cf + " (rollups " + rollups + ") answered " + response.statusCode()
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
