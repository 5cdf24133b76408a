package io.chronix.ingest.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's 2.42) scrapes a test target and itself and remote-writes everything
 * to the server; then a broad list of PromQL queries runs against both at several evaluation times
 * and ranges, and the answers must agree: same series, labels exact, values within 1e-6 relative,
 * the same errors. Afterwards a second Prometheus with an empty database and remote read pointed
 * at the server answers from the store what the first one answers from its own, and promtool
 * queries the server.
 *
 * <p>Evaluation times are placed half a scrape interval away from the scrapes: Prometheus 2 closes
 * ranges at their start and Prometheus 3 (whose semantics the engine follows) opens them, which
 * only matters for a sample exactly on the boundary.
 */
class PrometheusCompatibilityTest {

  private static final int SCRAPE_SECONDS = 95;
  private static final double EPSILON = 1e-6;

  @TempDir Path dir;

  /** The queries; %T is replaced with an evaluation time in seconds (for @). */
  static final List<String> QUERIES = List.of(
      // selectors
      "up", "test_requests_total", "test_requests_total{method=\"GET\"}", "test_requests_total{code!=\"200\"}",
      "test_requests_total{handler=~\"/a|/b\", method!~\"P.*\"}", "{__name__=~\"test_.*\", room=\"a\"}",
      "{__name__=\"test_queue_length\"}", "test_temperature_celsius offset 30s", "test_temperature_celsius offset -10s",
      "test_flapping", "test_sometimes_nan", "test_latency_seconds_bucket{handler=\"/a\"}", "test_rpc_seconds",
      "scrape_duration_seconds{job=\"exporter\"}", "nonexistent_metric", "test_requests_total[1m]",
      "test_temperature_celsius[30s] offset 10s", "{job=\"exporter\", __name__=~\"test_q.*\"}",
      // rates and deltas
      "rate(test_requests_total[1m])", "rate(test_requests_total[30s])", "irate(test_requests_total[1m])",
      "increase(test_requests_total[1m])", "delta(test_temperature_celsius[1m])", "idelta(test_queue_length[1m])",
      "deriv(test_temperature_celsius[1m])", "predict_linear(test_temperature_celsius[1m], 60)",
      "resets(test_requests_total[2m])", "changes(test_queue_length[1m])", "rate(test_requests_total[1m] offset 20s)",
      "sum(rate(test_requests_total[1m]))", "sum by (method) (rate(test_requests_total[1m]))",
      "rate(test_latency_seconds_count[1m])", "rate(prometheus_http_requests_total[1m])",
      "irate(test_requests_total{code=\"500\"}[30s])", "increase(test_latency_seconds_bucket[1m])",
      "rate(test_rpc_seconds_sum[1m]) / rate(test_rpc_seconds_count[1m])", "deriv(test_queue_length[30s])",
      "delta(test_sometimes_nan[1m])", "rate(test_requests_total{method=\"POST\", code=\"200\"}[2m])",
      "irate(test_queue_length[30s])",
      // over time
      "avg_over_time(test_temperature_celsius[1m])", "min_over_time(test_temperature_celsius[1m])",
      "max_over_time(test_temperature_celsius[1m])", "sum_over_time(test_temperature_celsius[1m])",
      "count_over_time(test_temperature_celsius[1m])", "quantile_over_time(0.9, test_temperature_celsius[1m])",
      "stddev_over_time(test_temperature_celsius[1m])", "stdvar_over_time(test_temperature_celsius[1m])",
      "last_over_time(test_temperature_celsius[1m])", "present_over_time(test_temperature_celsius[1m])",
      "count_over_time(test_flapping[1m])", "absent_over_time(nonexistent[1m])", "absent_over_time(test_flapping[20s])",
      "max_over_time(test_sometimes_nan[30s])", "min_over_time(test_sometimes_nan[30s])",
      "avg_over_time(test_queue_length[30s])", "sum_over_time(test_queue_length[1m])",
      "quantile_over_time(0.5, test_queue_length[1m])", "last_over_time(test_flapping[10s])",
      // aggregations
      "sum(test_temperature_celsius)", "avg(test_temperature_celsius)", "min(test_temperature_celsius)",
      "max(test_temperature_celsius)", "count(test_temperature_celsius)", "stddev(test_temperature_celsius)",
      "stdvar(test_temperature_celsius)", "group(test_temperature_celsius)", "sum by (room) (test_temperature_celsius)",
      "count by (code) (test_requests_total)", "sum without (handler) (test_requests_total)",
      "topk(2, test_temperature_celsius)", "bottomk(1, test_temperature_celsius)",
      "topk by (method) (1, test_requests_total)", "quantile(0.5, test_temperature_celsius)",
      "quantile(0.9, test_requests_total)", "count_values(\"value\", test_queue_length)",
      "count_values without (queue) (\"v\", test_queue_length)",
      "avg by (handler) (rate(test_latency_seconds_sum[1m]))", "max by (job) (up)", "sum(up) by (job)", "count(up)",
      "stddev by (method) (test_requests_total)", "group by (handler) (test_latency_seconds_bucket)",
      "count by (le) (test_latency_seconds_bucket)", "sum without (method, code) (rate(test_requests_total[1m]))",
      "avg without (room) (test_temperature_celsius)", "min by (queue) (test_queue_length)",
      // binary operators
      "test_temperature_celsius * 2", "2 - test_temperature_celsius", "test_temperature_celsius / 0",
      "test_temperature_celsius % 7", "test_temperature_celsius ^ 2", "-test_temperature_celsius",
      "test_queue_length + test_queue_length", "test_requests_total / on(method, code, handler) test_requests_total",
      "test_requests_total / ignoring(code) group_left sum without(code) (test_requests_total)",
      "sum by (method) (test_requests_total) / on(method) group_right test_requests_total",
      "test_requests_total * on(handler) group_left(le) test_latency_seconds_bucket{le=\"0.05\"}",
      "test_temperature_celsius > 25", "test_temperature_celsius > bool 25", "25 < test_temperature_celsius",
      "test_queue_length == 3", "test_queue_length != bool 3", "test_temperature_celsius >= test_temperature_celsius offset 10s",
      "test_temperature_celsius < bool test_temperature_celsius offset 10s",
      "test_requests_total and test_requests_total{code=\"200\"}", "test_requests_total or test_temperature_celsius",
      "test_requests_total unless test_requests_total{method=\"GET\"}",
      "test_requests_total and on(method) test_requests_total{method=\"POST\", code=\"500\"}", "up or vector(1)",
      "test_flapping or vector(0)", "1 + 2 * 3", "2 ^ 3 ^ 2", "(1 + 2) * 3", "10 % 3", "1 > bool 2", "time() - 100",
      "1 atan2 2", "test_queue_length{queue=\"q1\"} - ignoring(queue) test_queue_length{queue=\"q2\"}",
      "sum(rate(test_requests_total{code=\"500\"}[1m])) / sum(rate(test_requests_total[1m]))",
      // functions
      "abs(-test_temperature_celsius)", "ceil(test_temperature_celsius)", "floor(test_temperature_celsius)",
      "round(test_temperature_celsius)", "round(test_temperature_celsius, 0.5)", "exp(test_queue_length / 10)",
      "ln(test_temperature_celsius)", "log2(test_queue_length + 1)", "log10(test_temperature_celsius)",
      "sqrt(test_temperature_celsius)", "sgn(test_temperature_celsius - 30)", "clamp(test_temperature_celsius, 22, 35)",
      "clamp_min(test_queue_length, 5)", "clamp_max(test_queue_length, 5)", "sin(test_queue_length)",
      "cos(test_queue_length)", "tan(test_queue_length)", "asin(test_queue_length / 100)", "acos(test_queue_length / 100)",
      "atan(test_queue_length)", "sinh(test_queue_length / 10)", "cosh(test_queue_length / 10)",
      "tanh(test_queue_length)", "asinh(test_queue_length)", "acosh(test_queue_length + 1)",
      "atanh(test_queue_length / 100)", "deg(test_queue_length)", "rad(test_queue_length)", "pi()",
      "timestamp(test_temperature_celsius)", "timestamp(up)", "time()", "vector(1)", "scalar(sum(up))",
      "scalar(test_temperature_celsius)", "absent(nonexistent)", "absent(nonexistent{job=\"x\"})", "absent(up)",
      "label_replace(up, \"port\", \"$1\", \"instance\", \".*:(.*)\")",
      "label_replace(test_requests_total, \"h\", \"h-$1\", \"handler\", \"/(.*)\")",
      "label_join(test_requests_total, \"key\", \"-\", \"method\", \"code\")", "sort(test_temperature_celsius)",
      "sort_desc(test_temperature_celsius)", "histogram_quantile(0.9, rate(test_latency_seconds_bucket[1m]))",
      "histogram_quantile(0.5, sum by (le) (rate(test_latency_seconds_bucket[1m])))",
      "histogram_quantile(0.99, test_latency_seconds_bucket)", "day_of_month()", "day_of_week()", "days_in_month()",
      "hour()", "minute()", "month()", "year()", "hour(timestamp(up))", "minute(vector(1700000000))",
      "day_of_year(vector(1700000000))", "year(timestamp(test_queue_length))",
      // subqueries and @
      "max_over_time(rate(test_requests_total[30s])[1m:10s])", "avg_over_time(test_temperature_celsius[1m:5s])",
      "rate(test_requests_total[1m])[1m:15s]", "min_over_time(sum(test_queue_length)[1m:])",
      "max_over_time(deriv(test_temperature_celsius[30s])[1m:10s] offset 10s)", "test_temperature_celsius @ %T",
      "rate(test_requests_total[30s] @ %T)", "sum(test_queue_length @ %T)", "max_over_time(test_queue_length[30s:5s] @ %T)",
      "test_temperature_celsius @ start()", "test_temperature_celsius @ end()", "count_over_time(up[1m:5s])",
      "sum_over_time(test_queue_length[30s:10s] offset 15s)",
      // Prometheus' own metrics
      "sum(rate(prometheus_http_requests_total[1m])) by (handler)", "topk(3, scrape_samples_scraped)",
      "histogram_quantile(0.9, sum by (le) (rate(prometheus_http_request_duration_seconds_bucket[1m])))",
      "count by (job) (up)", "scrape_duration_seconds > 0", "prometheus_tsdb_head_series", "go_goroutines{job=\"prometheus\"}",
      "rate(process_cpu_seconds_total[1m])", "count({__name__=~\"go_.*\"})",
      "count by (__name__) ({__name__=~\"scrape_.*\"})",
      // errors
      "rate(test_temperature_celsius)", "sum(", "test_requests_total + on(method) test_requests_total",
      "label_replace(up, \"a\", \"b\", \"c\", \"(\")", "{__name__=~\".*\"}");

  @Test
  void answersAsPrometheusDoesAndServesItsRemoteRead() throws Exception {
    assertTrue(Files.isExecutable(PrometheusProcess.BINARY), "prometheus missing: scripts/install-test-deps.sh installs it");
    assertTrue(QUERIES.size() >= 150, QUERIES.size() + " queries");
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.resolve("data").toString())).start();
         TestExporter exporter = new TestExporter()) {
      String config = String.join("\n",
          "global:",
          "  scrape_interval: 1s",
          "  evaluation_interval: 1m",
          "scrape_configs:",
          "  - job_name: prometheus",
          "    static_configs: [{targets: ['PROMETHEUS']}]",
          "  - job_name: exporter",
          "    static_configs: [{targets: ['" + exporter.address() + "']}]",
          "remote_write:",
          "  - url: " + server.baseUrl() + "/api/v1/write",
          "    queue_config: {batch_send_deadline: 1s, max_samples_per_send: 2000}",
          "    metadata_config: {send: false}",
          "");
      long started = System.currentTimeMillis();
      try (PrometheusProcess prometheus = startSelfScraping(dir.resolve("prometheus1"), config)) {
        Thread.sleep(TimeUnit.SECONDS.toMillis(SCRAPE_SECONDS));
        PrometheusApiClient theirs = new PrometheusApiClient(prometheus.url());
        PrometheusApiClient ours = new PrometheusApiClient(server.baseUrl());
        long base = evaluationBase(ours, started);
        List<long[]> ranges = List.of(new long[] {base - 60_000, base, 5_000}, new long[] {base - 40_000, base - 10_000, 10_000});
        long[] instants = {base, base - 17_000, base - 33_000};
        List<String> mismatches = new ArrayList<>();
        int comparisons = 0;
        for (String template : QUERIES) {
          String query = template.replace("%T", PrometheusApiClientAccess.seconds(base - 25_000));
          for (long time : instants) {
            comparisons++;
            compare(query + " @ instant " + time, () -> theirs.instant(query, time), () -> ours.instant(query, time),
                mismatches);
          }
          for (long[] range : ranges) {
            comparisons++;
            compare(query + " @ range " + range[0] + ".." + range[1] + "/" + range[2],
                () -> theirs.range(query, range[0], range[1], range[2]), () -> ours.range(query, range[0], range[1], range[2]),
                mismatches);
          }
        }
        System.out.println("Prometheus comparison: " + QUERIES.size() + " queries, " + comparisons + " evaluations, "
            + mismatches.size() + " mismatches");
        mismatches.forEach(m -> System.out.println("MISMATCH " + m));
        assertEquals(List.of(), mismatches, "answers differing from Prometheus " + prometheus.log());

        remoteReadAnswersWhatPrometheusHad(server, theirs, base);
        promtoolQueriesTheServer(server, base);
      }
    }
  }

  /** Prometheus scraping itself needs its own address in the config: known only once it runs. */
  private static PrometheusProcess startSelfScraping(Path dir, String config) throws Exception {
    Path probe = dir.resolveSibling(dir.getFileName() + "-probe");
    PrometheusProcess first = new PrometheusProcess(probe, "global: {scrape_interval: 1m}\n");
    String address = first.url().substring("http://".length());
    first.close();
    return new PrometheusProcess(dir, config.replace("PROMETHEUS", address));
  }

  /**
   * A time at least 20 s before the newest sample the server holds, half a scrape interval away
   * from every target's scrape times (so range boundaries never fall on a sample), never on a whole
   * second (so no boundary falls on a subquery's step either: steps are whole seconds), and at least
   * 70 s after the start. Prometheus 2 closes ranges on the left and ours are left-open, as
   * Prometheus 3's (docs/promql.md): a sample or step on the boundary is counted by one only. A base
   * on a whole multiple of 5 s gave subqueries such as {@code count_over_time(up[1m:5s])} 13 steps
   * in Prometheus 2 and 12 in ours.
   */
  private static long evaluationBase(PrometheusApiClient ours, long started) throws Exception {
    long now = System.currentTimeMillis();
    QueryResult samples = ours.instant("up[20s]", now);
    List<Long> phases = new ArrayList<>();
    long newest = 0;
    for (QueryResult.Series series : ((QueryResult.Matrix) samples.data()).series()) {
      for (int i = 0; i < series.size(); i++) {
        phases.add(Math.floorMod(series.timestamps()[i], 1000L));
        newest = Math.max(newest, series.timestamps()[i]);
      }
    }
    long bestPhase = 0;
    long bestDistance = -1;
    for (long candidate = 10; candidate < 1000; candidate += 10) {
      long distance = Long.MAX_VALUE;
      for (long phase : phases) {
        long d = Math.floorMod(candidate - phase, 1000L);
        distance = Math.min(distance, Math.min(d, 1000 - d));
      }
      if (distance > bestDistance) {
        bestDistance = distance;
        bestPhase = candidate;
      }
    }
    assertTrue(bestDistance >= 100, "scrape phases " + phases + " leave no time between them");
    long base = (newest / 1000) * 1000 - 20_000 + bestPhase;
    assertTrue(base - started > 70_000, "enough data before the evaluation times");
    return base;
  }

  interface Answer {
    QueryResult get() throws Exception;
  }

  private static void compare(String what, Answer theirs, Answer ours, List<String> mismatches) throws Exception {
    QueryResult expected;
    QueryResult actual;
    PromQlException expectedError = null;
    PromQlException actualError = null;
    try {
      expected = theirs.get();
    } catch (PromQlException e) {
      expected = null;
      expectedError = e;
    }
    try {
      actual = ours.get();
    } catch (PromQlException e) {
      actual = null;
      actualError = e;
    }
    if (expectedError != null || actualError != null) {
      if (expectedError == null || actualError == null || expectedError.type() != actualError.type()) {
        mismatches.add(what + ": Prometheus " + (expectedError == null ? "answered" : expectedError.type() + " " + expectedError.getMessage())
            + ", we " + (actualError == null ? "answered" : actualError.type() + " " + actualError.getMessage()));
      }
      return;
    }
    String problem = difference(expected.data(), actual.data(), what.contains("sort"));
    if (problem != null) {
      mismatches.add(what + ": " + problem);
    }
  }

  static String difference(QueryResult.Data expected, QueryResult.Data actual, boolean ordered) {
    if (!expected.resultType().equals(actual.resultType())) {
      return "result type " + actual.resultType() + " instead of " + expected.resultType();
    }
    if (expected instanceof QueryResult.Scalar e) {
      return equal(e.value(), ((QueryResult.Scalar) actual).value()) ? null
          : "scalar " + ((QueryResult.Scalar) actual).value() + " instead of " + e.value();
    }
    if (expected instanceof QueryResult.Text e) {
      return e.value().equals(((QueryResult.Text) actual).value()) ? null : "string differs";
    }
    if (expected instanceof QueryResult.Vector e) {
      QueryResult.Vector a = (QueryResult.Vector) actual;
      if (e.samples().size() != a.samples().size()) {
        return a.samples().size() + " series instead of " + e.samples().size() + ": " + a.samples() + " vs " + e.samples();
      }
      Map<Labels, Double> values = new HashMap<>();
      a.samples().forEach(s -> values.put(s.labels(), s.value()));
      for (int i = 0; i < e.samples().size(); i++) {
        QueryResult.Sample sample = e.samples().get(i);
        if (ordered && !a.samples().get(i).labels().equals(sample.labels())) {
          return "order differs at " + i;
        }
        Double value = values.get(sample.labels());
        if (value == null) {
          return "missing " + sample.labels() + " in " + a.samples();
        }
        if (!equal(sample.value(), value)) {
          return sample.labels() + " = " + GoFloats.format(value) + " instead of " + GoFloats.format(sample.value());
        }
      }
      return null;
    }
    QueryResult.Matrix e = (QueryResult.Matrix) expected;
    QueryResult.Matrix a = (QueryResult.Matrix) actual;
    Map<Labels, QueryResult.Series> series = new HashMap<>();
    a.series().forEach(s -> series.put(s.labels(), s));
    if (e.series().size() != a.series().size()) {
      return a.series().size() + " series instead of " + e.series().size();
    }
    for (QueryResult.Series want : e.series()) {
      QueryResult.Series got = series.get(want.labels());
      if (got == null) {
        return "missing series " + want.labels();
      }
      if (want.size() != got.size()) {
        return want.labels() + ": " + got.size() + " points instead of " + want.size();
      }
      for (int i = 0; i < want.size(); i++) {
        if (want.timestamps()[i] != got.timestamps()[i] || !equal(want.values()[i], got.values()[i])) {
          return want.labels() + " point " + i + ": " + got.timestamps()[i] + "=" + GoFloats.format(got.values()[i])
              + " instead of " + want.timestamps()[i] + "=" + GoFloats.format(want.values()[i]);
        }
      }
    }
    return null;
  }

  static boolean equal(double expected, double actual) {
    if (Double.isNaN(expected) || Double.isNaN(actual)) {
      return Double.isNaN(expected) && Double.isNaN(actual);
    }
    if (expected == actual) {
      return true;
    }
    return Math.abs(expected - actual) <= EPSILON * Math.max(Math.abs(expected), Math.abs(actual));
  }

  /** A second Prometheus, empty but for remote read from the store, answers like the first one. */
  private void remoteReadAnswersWhatPrometheusHad(ChronixServer server, PrometheusApiClient first, long base) throws Exception {
    String config = String.join("\n",
        "global: {scrape_interval: 1m}",
        "remote_read:",
        "  - url: " + server.baseUrl() + "/api/v1/read",
        "    read_recent: true",
        "");
    try (PrometheusProcess second = new PrometheusProcess(dir.resolve("prometheus2"), config)) {
      PrometheusApiClient reading = new PrometheusApiClient(second.url());
      List<String> mismatches = new ArrayList<>();
      for (String query : List.of("up", "test_requests_total", "rate(test_requests_total[1m])",
          "sum by (handler) (test_latency_seconds_bucket)", "test_flapping", "test_sometimes_nan",
          "histogram_quantile(0.9, rate(test_latency_seconds_bucket[1m]))", "avg_over_time(test_temperature_celsius[1m])")) {
        compare("remote read " + query, () -> first.instant(query, base), () -> reading.instant(query, base), mismatches);
        compare("remote read range " + query, () -> first.range(query, base - 60_000, base, 5_000),
            () -> reading.range(query, base - 60_000, base, 5_000), mismatches);
      }
      assertEquals(List.of(), mismatches, "a Prometheus reading the store remotely: " + second.log());
      QueryResult up = reading.instant("up", base);
      assertEquals(2, ((QueryResult.Vector) up.data()).samples().size(), "both targets' old samples come from the store");
    }
  }

  private static void promtoolQueriesTheServer(ChronixServer server, long base) throws Exception {
    String seconds = PrometheusApiClientAccess.seconds(base);
    String instant = promtool("query", "instant", "--time=" + seconds, server.baseUrl(), "test_queue_length");
    assertTrue(instant.contains("test_queue_length{instance=") && instant.contains("queue=\"q1\""), instant);
    String range = promtool("query", "range", "--start=" + PrometheusApiClientAccess.seconds(base - 30_000),
        "--end=" + seconds, "--step=10s", server.baseUrl(), "sum(rate(test_requests_total[1m]))");
    assertTrue(range.contains("{} =>"), range);
    String series = promtool("query", "series", "--match=test_rpc_seconds", server.baseUrl());
    assertTrue(series.contains("quantile=\"0.99\""), series);
    String labels = promtool("query", "labels", server.baseUrl(), "job");
    assertTrue(labels.contains("exporter") && labels.contains("prometheus"), labels);
  }

  private static String promtool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(PrometheusProcess.PROMTOOL.toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "promtool finishes");
    assertEquals(0, process.exitValue(), "promtool " + String.join(" ", args) + ": " + output);
    return output;
  }
}
