package io.chronix.ingest.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays what Grafana's built-in Prometheus datasource sends for a service dashboard (httpMethod
 * POST, Prometheus type and version set): the "Save &amp; test" check, the template variables'
 * label-value lookups with {@code match[]}, the metrics browser, the panels' {@code query_range}
 * form bodies (keys in Grafana's order, start and end aligned to the step, {@code $__rate_interval}
 * already expanded to {@code 1m0s}), a table panel's instant query and the exemplar probe, with
 * Grafana's headers. Every answer is checked against values known from the written data.
 */
class GrafanaDatasourceReplayTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = TestHttp.CLIENT;
  /** The dashboard's "now": 2024-03-01T12:00:00Z, in seconds. */
  private static final long NOW = 1_709_294_400L;
  private static final long SCRAPE_SECONDS = 15;
  private static final String[] INSTANCES = {"10.0.0.1:8080", "10.0.0.2:8080"};
  private static final String[] HANDLERS = {"/a", "/b"};
  private static final String[] BUCKETS = {"0.1", "0.5", "1", "+Inf"};
  private static final int[] BUCKET_INCREMENTS = {5, 8, 9, 10};
  /** Scrape index of the one heap spike on the first instance, 20 minutes before now. */
  private static final long SPIKE = (7200 - 1200) / SCRAPE_SECONDS;

  @TempDir static Path dataDir;
  private static ChronixServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())).start();
    int scrapes = (int) (7200 / SCRAPE_SECONDS) + 1;
    long[] times = new long[scrapes];
    for (int k = 0; k < scrapes; k++) {
      times[k] = (NOW - 7200 + k * SCRAPE_SECONDS) * 1000;
    }
    List<TimeSeries> series = new ArrayList<>();
    for (int i = 0; i < INSTANCES.length; i++) {
      for (int h = 0; h < HANDLERS.length; h++) {
        int increment = 3 * (h + 1);
        series.add(PrometheusApiClient.timeSeries(labels("http_requests_total", "instance", INSTANCES[i],
            "handler", HANDLERS[h], "code", "200"), times, values(scrapes, k -> k * increment)));
      }
      int instance = i;
      series.add(PrometheusApiClient.timeSeries(labels("jvm_memory_used_bytes", "instance", INSTANCES[i], "area", "heap"),
          times, values(scrapes, k -> instance == 0 && k == SPIKE ? 9e8 : 1e8 + (k % 4) * 1e6)));
    }
    for (int b = 0; b < BUCKETS.length; b++) {
      int increment = BUCKET_INCREMENTS[b];
      series.add(PrometheusApiClient.timeSeries(labels("http_request_duration_seconds_bucket", "instance", INSTANCES[0],
          "le", BUCKETS[b]), times, values(scrapes, k -> k * increment)));
    }
    series.add(PrometheusApiClient.timeSeries(labels("http_request_duration_seconds_count", "instance", INSTANCES[0]),
        times, values(scrapes, k -> k * 10)));
    series.add(PrometheusApiClient.timeSeries(labels("http_request_duration_seconds_sum", "instance", INSTANCES[0]),
        times, values(scrapes, k -> k * 3)));
    assertEquals(204, new PrometheusApiClient(server.baseUrl()).remoteWrite(series));
    HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/flush")).POST(HttpRequest.BodyPublishers.noBody())
        .build(), HttpResponse.BodyHandlers.discarding());
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Labels labels(String name, String... pairs) {
    Labels.Builder labels = new Labels.Builder().set("__name__", name).set("job", "api");
    for (int i = 0; i < pairs.length; i += 2) {
      labels.set(pairs[i], pairs[i + 1]);
    }
    return labels.build();
  }

  private static double[] values(int n, java.util.function.IntToDoubleFunction value) {
    double[] values = new double[n];
    for (int k = 0; k < n; k++) {
      values[k] = value.applyAsDouble(k);
    }
    return values;
  }

  @Test
  void saveAndTest() throws Exception {
    JsonNode buildInfo = get("/api/v1/status/buildinfo", Map.of());
    assertEquals("success", buildInfo.get("status").asText());
    assertTrue(buildInfo.at("/data/version").asText().matches("2\\.\\d+\\.\\d+"), buildInfo.toString());
    // Grafana's health check: the instant query 1+1, as a form body and (older versions) in the URL
    JsonNode check = post("/api/v1/query", form("query", "1+1", "time", String.valueOf(NOW)));
    assertEquals("scalar", check.at("/data/resultType").asText());
    assertEquals("2", check.at("/data/result/1").asText());
    JsonNode inUrl = send(HttpRequest.newBuilder(uri("/api/v1/query?query=1%2B1&time=0"))
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.noBody()));
    assertEquals("2", inUrl.at("/data/result/1").asText());
  }

  @Test
  void templateVariablesAndMetricsBrowser() throws Exception {
    Map<String, String> lastHour = Map.of("start", String.valueOf(NOW - 3600), "end", String.valueOf(NOW));
    assertEquals(List.of(INSTANCES), strings(get("/api/v1/label/instance/values",
        with(lastHour, "match[]", "http_requests_total"))));
    assertEquals(List.of(HANDLERS), strings(get("/api/v1/label/handler/values",
        with(lastHour, "match[]", "http_requests_total{instance=\"10.0.0.2:8080\"}"))));
    assertEquals(List.of("http_request_duration_seconds_bucket", "http_request_duration_seconds_count",
        "http_request_duration_seconds_sum", "http_requests_total", "jvm_memory_used_bytes"),
        strings(get("/api/v1/label/__name__/values", lastHour)));
    assertEquals(List.of(), strings(get("/api/v1/label/__name__/values",
        Map.of("start", String.valueOf(NOW + 3600), "end", String.valueOf(NOW + 7200)))), "nothing written in the future");
    assertTrue(get("/api/v1/metadata", Map.of()).get("data").isObject());
    List<String> labelNames = List.of("__name__", "code", "handler", "instance", "job");
    assertEquals(labelNames, strings(get("/api/v1/labels", with(lastHour, "match[]", "http_requests_total"))));
    assertEquals(labelNames, strings(post("/api/v1/labels", with(lastHour, "match[]", "http_requests_total"))),
        "the datasource's POST method sends lookups as forms");
    JsonNode series = get("/api/v1/series", with(with(lastHour, "match[]", "{__name__=\"http_requests_total\"}"),
        "limit", "40000"));
    assertEquals(4, series.get("data").size());
    assertEquals("http_requests_total", series.at("/data/0/__name__").asText());
  }

  @Test
  void dashboardPanels() throws Exception {
    Map<String, double[]> requests = panel("sum by (handler) (rate(http_requests_total{job=\"api\", "
        + "instance=~\"10.0.0.1:8080|10.0.0.2:8080\"}[1m0s]))", 3600, 15);
    assertEquals(241, requests.get("{handler=\"/a\"}").length, "one point per 15 s step of the hour, both ends included");
    assertConstant(0.4, requests.get("{handler=\"/a\"}"), "3 per 15 s on each of two instances");
    assertConstant(0.8, requests.get("{handler=\"/b\"}"), "6 per 15 s on each of two instances");

    Map<String, double[]> latency = panel(
        "histogram_quantile(0.75, sum by (le) (rate(http_request_duration_seconds_bucket{job=\"api\"}[1m0s])))", 3600, 15);
    assertConstant(0.1 + 0.4 * (7.5 - 5) / (8 - 5), latency.get("{}"), "interpolated inside the 0.1..0.5 bucket");

    Map<String, double[]> mean = panel("rate(http_request_duration_seconds_sum[1m0s]) "
        + "/ rate(http_request_duration_seconds_count[1m0s])", 3600, 15);
    assertConstant(0.3, mean.get("{instance=\"10.0.0.1:8080\", job=\"api\"}"), "3 s per 10 requests");

    Map<String, double[]> top = panel("topk(1, jvm_memory_used_bytes)", 3600, 60);
    assertEquals(1, top.size(), top.keySet().toString());

    Map<String, double[]> outliers = panel("chronix_outlier(jvm_memory_used_bytes[1h])", 3600, 60);
    double[] first = outliers.get("{area=\"heap\", instance=\"10.0.0.1:8080\", job=\"api\"}");
    double[] second = outliers.get("{area=\"heap\", instance=\"10.0.0.2:8080\", job=\"api\"}");
    assertEquals(61, first.length);
    assertEquals(1, first[60], "the spike 20 minutes ago is in the last hour's window");
    assertEquals(0, first[0], "the spike is not in the window an hour ago");
    assertConstant(0, second, "no spike on the second instance");

    Map<String, double[]> high = panel("avg_over_time(jvm_memory_used_bytes[5m]) > 1.1e8", 3600, 60);
    assertEquals(1, high.size(), "only the spiking instance exceeds the threshold, and only around the spike");
    assertEquals(5, high.values().iterator().next().length, "the five one-minute steps whose 5 m window holds the spike");

    Map<String, double[]> earlier = panel("increase(http_requests_total{handler=\"/a\"}[5m] offset 30m)", 3600, 60);
    assertConstant(60, earlier.get("{code=\"200\", handler=\"/a\", instance=\"10.0.0.1:8080\", job=\"api\"}"),
        "3 per 15 s for 5 minutes, half an hour earlier");
  }

  @Test
  void tablePanelAndExemplars() throws Exception {
    JsonNode table = post("/api/v1/query", form("query", "sum by (instance) (irate(http_requests_total[1m0s]))",
        "time", String.valueOf(NOW)));
    assertEquals("vector", table.at("/data/resultType").asText());
    assertEquals(2, table.at("/data/result").size());
    for (JsonNode sample : table.at("/data/result")) {
      assertEquals(0.6, Double.parseDouble(sample.at("/value/1").asText()), 1e-9, sample.toString());
      assertEquals(NOW, sample.at("/value/0").asLong());
    }
    JsonNode exemplars = get("/api/v1/query_exemplars", Map.of("query", "http_requests_total",
        "start", String.valueOf(NOW - 3600), "end", String.valueOf(NOW)));
    assertEquals("success", exemplars.get("status").asText());
    assertEquals(0, exemplars.get("data").size());
    assertEquals("success", get("/api/v1/rules", Map.of()).get("status").asText());
  }

  @Test
  void aBrokenPanelQueryGetsPrometheusErrorForGrafanaToShow() throws Exception {
    HttpResponse<byte[]> response = HTTP.send(grafana(HttpRequest.newBuilder(uri("/api/v1/query_range")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(encode(form("end", String.valueOf(NOW), "query",
            "sum by (handler (rate(http_requests_total[1m0s]))", "start", String.valueOf(NOW - 3600), "step", "15")))).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(400, response.statusCode());
    JsonNode body = JSON.readTree(body(response));
    assertEquals("bad_data", body.get("errorType").asText());
    assertTrue(body.get("error").asText().startsWith("1:"), body.toString());
  }

  /**
   * A time series panel over the last {@code seconds} at {@code step}: Grafana aligns start and
   * end to the step and posts the form keys in alphabetical order. Answers series by their
   * labels as text.
   */
  private static Map<String, double[]> panel(String query, long seconds, long step) throws Exception {
    long end = NOW / step * step;
    long start = (NOW - seconds) / step * step;
    JsonNode body = post("/api/v1/query_range", form("end", String.valueOf(end), "query", query,
        "start", String.valueOf(start), "step", String.valueOf(step)));
    assertEquals("success", body.get("status").asText(), body.toString());
    assertEquals("matrix", body.at("/data/resultType").asText());
    Map<String, double[]> series = new TreeMap<>();
    for (JsonNode s : body.at("/data/result")) {
      JsonNode points = s.get("values");
      double[] values = new double[points.size()];
      for (int i = 0; i < values.length; i++) {
        long time = points.get(i).get(0).asLong();
        assertEquals(0, (time - start) % step, "points on the step grid");
        values[i] = Double.parseDouble(points.get(i).get(1).asText());
      }
      Map<String, String> labels = new TreeMap<>(JSON.convertValue(s.get("metric"), Map.class));
      StringBuilder key = new StringBuilder("{");
      labels.forEach((name, value) -> key.append(key.length() > 1 ? ", " : "").append(name).append("=\"").append(value)
          .append('"'));
      series.put(key.append('}').toString(), values);
    }
    return series;
  }

  private static void assertConstant(double expected, double[] values, String why) {
    assertTrue(values != null && values.length > 0, why + ": no points");
    for (double value : values) {
      assertEquals(expected, value, 1e-9 * Math.max(1, Math.abs(expected)), why);
    }
  }

  private static Map<String, String> form(String... pairs) {
    Map<String, String> form = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      form.put(pairs[i], pairs[i + 1]);
    }
    return form;
  }

  private static Map<String, String> with(Map<String, String> params, String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(params);
    more.put(name, value);
    return more;
  }

  private static List<String> strings(JsonNode body) {
    assertEquals("success", body.get("status").asText(), body.toString());
    List<String> strings = new ArrayList<>();
    body.get("data").forEach(node -> strings.add(node.asText()));
    return strings;
  }

  private static JsonNode get(String path, Map<String, String> params) throws Exception {
    return send(HttpRequest.newBuilder(uri(path + (params.isEmpty() ? "" : "?" + encode(params)))).GET());
  }

  private static JsonNode post(String path, Map<String, String> form) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(encode(form))));
  }

  private static JsonNode send(HttpRequest.Builder request) throws Exception {
    HttpResponse<byte[]> response = HTTP.send(grafana(request).build(), HttpResponse.BodyHandlers.ofByteArray());
    JsonNode body = JSON.readTree(body(response));
    assertEquals(200, response.statusCode(), body.toString());
    return body;
  }

  /** The headers Grafana's backend adds to every datasource request. */
  private static HttpRequest.Builder grafana(HttpRequest.Builder request) {
    return request.header("User-Agent", "Grafana/10.4.1").header("Accept-Encoding", "gzip")
        .header("X-Grafana-Org-Id", "1");
  }

  private static byte[] body(HttpResponse<byte[]> response) throws IOException {
    if (!"gzip".equals(response.headers().firstValue("Content-Encoding").orElse(""))) {
      return response.body();
    }
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
      return in.readAllBytes();
    }
  }

  private static URI uri(String pathAndQuery) {
    return URI.create(server.baseUrl() + pathAndQuery);
  }

  private static String encode(Map<String, String> params) {
    StringBuilder text = new StringBuilder();
    params.forEach((name, value) -> text.append(text.length() > 0 ? "&" : "")
        .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    return text.toString();
  }
}
