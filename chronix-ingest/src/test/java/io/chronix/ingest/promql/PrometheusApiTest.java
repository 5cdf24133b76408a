package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.http.ResponseCompression;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.store.RecordDocuments;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus HTTP API of the server: envelopes, errors, lookups, names and labels. */
class PrometheusApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = TestHttp.CLIENT;
  /** 2024-01-01T00:00:00Z in milliseconds. */
  private static final long T0 = 1_704_067_200_000L;
  private static final long DAY = 86_400_000L;

  @TempDir static Path dataDir;
  private static ChronixServer server;
  private static PrometheusApiClient api;

  @BeforeAll
  static void start() throws Exception {
    server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
        .with("solr.openAdminHandlers", "true") // a record as old versions wrote it goes in through Solr
        .with("compaction.interval", "0").with("promql.maxSeries", "50")).start();
    api = new PrometheusApiClient(server.baseUrl());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i <= 60; i++) {
      long t = T0 + i * 10_000L;
      lines.append("cpu,host=web1,host.zone=eu usage_idle=").append(90 + i % 5).append(' ').append(t).append('\n');
      lines.append("cpu,host=web2,host.zone=us usage_idle=").append(50 + i % 3).append(' ').append(t).append('\n');
      lines.append("http_requests_total,job=api value=").append(i * 10).append(' ').append(t).append('\n');
      lines.append("servers.web1.load value=").append(i).append(' ').append(t).append('\n');
      lines.append("svc,host=web1 state=\"up\" ").append(t).append('\n');
    }
    assertEquals(204, post(server.baseUrl() + "/write?precision=ms", lines.toString(), "text/plain").statusCode());
    // half of it written as records, the rest stays buffered: queries must see both
    assertEquals(204, post(server.baseUrl() + "/flush", "", "text/plain").statusCode());
    StringBuilder more = new StringBuilder();
    for (int i = 61; i <= 90; i++) {
      more.append("cpu,host=web1,host.zone=eu usage_idle=").append(90 + i % 5).append(' ').append(T0 + i * 10_000L).append('\n');
    }
    assertEquals(204, post(server.baseUrl() + "/write?precision=ms", more.toString(), "text/plain").statusCode());
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static HttpResponse<String> post(String url, String body, String type) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", type)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode get(String path) throws Exception {
    return JSON.readTree(api.get(path).body());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @Test
  void instantQueryAnswersTheVectorEnvelope() throws Exception {
    JsonNode body = get("/api/v1/query?query=" + encode("cpu_usage_idle{host=\"web1\"}") + "&time=" + (T0 / 1000 + 600));
    assertEquals("success", body.get("status").asText());
    assertEquals("vector", body.at("/data/resultType").asText());
    JsonNode sample = body.at("/data/result/0");
    assertEquals(Map.of("__name__", "cpu_usage_idle", "host", "web1", "U__host_2e_zone", "eu"),
        JSON.convertValue(sample.get("metric"), Map.class), "a tag key that is no label name comes escaped");
    assertEquals(T0 / 1000 + 600, sample.at("/value/0").asLong());
    assertTrue(sample.at("/value/0").isNumber(), "timestamps are float seconds");
    assertEquals("90", sample.at("/value/1").asText(), "values are strings");
  }

  @Test
  void bufferedPointsAreQueriedWithTheStoredOnes() throws Exception {
    QueryResult result = api.range("cpu_usage_idle{host=\"web1\"}", T0, T0 + 900_000, 60_000);
    QueryResult.Series series = ((QueryResult.Matrix) result.data()).series().get(0);
    assertEquals(16, series.size(), "stored (to 600 s) and buffered (to 900 s) points");
    assertEquals(T0 + 900_000, series.timestamps()[15]);
  }

  /**
   * A range's points as Prometheus writes them: whole seconds as integers, others with their
   * fraction, each value's shortest text, also where steps repeat a value and where they change.
   */
  @Test
  void rangePointsAreSecondsAndShortestValueTexts() throws Exception {
    HttpResponse<String> halves = api.get("/api/v1/query_range?query=" + encode("cpu_usage_idle{host=\"web1\"}")
        + "&start=" + (T0 / 1000) + "&end=" + (T0 / 1000 + 2) + "&step=0.5");
    assertEquals(200, halves.statusCode(), halves.body());
    assertTrue(halves.body().contains("\"values\":[[1704067200,\"90\"],[1704067200.5,\"90\"],[1704067201,\"90\"],"
        + "[1704067201.5,\"90\"],[1704067202,\"90\"]]"), halves.body());
    HttpResponse<String> thirds = api.get("/api/v1/query_range?query=" + encode("cpu_usage_idle{host=\"web1\"} / 3")
        + "&start=" + (T0 / 1000) + "&end=" + (T0 / 1000 + 60) + "&step=10");
    JsonNode values = JSON.readTree(thirds.body()).at("/data/result/0/values");
    assertEquals(7, values.size(), thirds.body());
    for (int i = 0; i < values.size(); i++) {
      assertEquals(Double.toString((90 + i % 5) / 3.0).replaceAll("\\.0$", ""), values.get(i).get(1).asText(),
          thirds.body());
    }
  }

  @Test
  void postFormAndGetAnswerAlike() throws Exception {
    String query = "sum by (host) (rate(http_requests_total[1m])) * 60";
    HttpResponse<String> viaGet = api.get("/api/v1/query_range?query=" + encode(query) + "&start=" + (T0 / 1000)
        + "&end=" + (T0 / 1000 + 300) + "&step=1m0s");
    HttpResponse<String> viaPost = api.post("/api/v1/query_range",
        Map.of("query", query, "start", "2024-01-01T00:00:00Z", "end", "2024-01-01T00:05:00.000Z", "step", "60"));
    assertEquals(200, viaGet.statusCode(), viaGet.body());
    assertEquals(viaGet.body(), viaPost.body());
    QueryResult.Series series = ((QueryResult.Matrix) PrometheusApiClient.result(viaGet).data()).series().get(0);
    assertEquals(Labels.EMPTY, series.labels());
    assertEquals(60.0, series.values()[3], 1e-9, "10 per 10 s is 60 a minute");
  }

  @Test
  void scalarsStringsAndSpecialValues() throws Exception {
    assertEquals("2", get("/api/v1/query?query=" + encode("1+1")).at("/data/result/1").asText());
    assertEquals("scalar", get("/api/v1/query?query=" + encode("1+1")).at("/data/resultType").asText());
    assertEquals("NaN", get("/api/v1/query?query=" + encode("0/0") + "&time=1").at("/data/result/1").asText());
    assertEquals("+Inf", get("/api/v1/query?query=" + encode("1/0") + "&time=1").at("/data/result/1").asText());
    assertEquals("-Inf", get("/api/v1/query?query=" + encode("-1/0") + "&time=1").at("/data/result/1").asText());
    JsonNode text = get("/api/v1/query?query=" + encode("\"hello\"") + "&time=1.5");
    assertEquals("string", text.at("/data/resultType").asText());
    assertEquals(1.5, text.at("/data/result/0").asDouble());
    assertEquals("hello", text.at("/data/result/1").asText());
  }

  @Test
  void errorsHavePrometheusTypesAndStatuses() throws Exception {
    HttpResponse<String> bad = api.get("/api/v1/query?query=" + encode("sum(rate(x[5m])"));
    assertEquals(400, bad.statusCode());
    JsonNode body = JSON.readTree(bad.body());
    assertEquals("error", body.get("status").asText());
    assertEquals("bad_data", body.get("errorType").asText());
    assertEquals("1:16: parse error: unexpected end of input", body.get("error").asText());

    HttpResponse<String> execution = api.get("/api/v1/query?query=" + encode("label_replace(vector(1), \"a\", \"b\", \"c\", \"(\")"));
    assertEquals(422, execution.statusCode());
    assertEquals("execution", JSON.readTree(execution.body()).get("errorType").asText());

    HttpResponse<String> tooMany = api.get("/api/v1/query?query=" + encode("{__name__=~\".+\"}") + "&time=" + (T0 / 1000 + 600));
    assertEquals(200, tooMany.statusCode(), "5 series are under the limit of 50");

    HttpResponse<String> badStep = api.get("/api/v1/query_range?query=up&start=1&end=2&step=0");
    assertEquals(400, badStep.statusCode());
    assertTrue(badStep.body().contains("invalid parameter \\\"step\\\""), badStep.body());
    HttpResponse<String> badTime = api.get("/api/v1/query?query=up&time=yesterday");
    assertEquals(400, badTime.statusCode());
    assertTrue(badTime.body().contains("cannot parse \\\"yesterday\\\" to a valid timestamp"), badTime.body());
    HttpResponse<String> resolution = api.get("/api/v1/query_range?query=up&start=0&end=100000&step=1");
    assertEquals(400, resolution.statusCode());
    assertTrue(resolution.body().contains("exceeded maximum resolution of 11,000 points"), resolution.body());
    assertEquals(404, api.get("/api/v1/nonsense").statusCode());
    HttpResponse<String> largeForm = api.post("/api/v1/query", Map.of("query", "up or " + "x".repeat(200_000)));
    assertEquals(400, largeForm.statusCode());
    assertEquals("bad_data", JSON.readTree(largeForm.body()).get("errorType").asText());
    assertEquals("request body exceeds 200000 bytes (the largest form-encoded body read)",
        JSON.readTree(largeForm.body()).get("error").asText());
  }

  @Test
  void badQueriesAreBadDataWithPositionNeverServerErrors() throws Exception {
    List<String> bad = List.of("sum(", "rate(cpu_usage_idle)", "cpu_usage_idle{host=\"web1\"", "cpu_usage_idle[5m",
        "1 +", "topk(cpu_usage_idle)", "cpu_usage_idle offset", "foo @ bar", "{}", "cpu_usage_idle{host=~\"(\"}",
        "histogram_quantile(0.9)", "sum by (host (cpu_usage_idle)", "\"unterminated", "cpu_usage_idle[5m:1m:1m]",
        "chronix_outlier(cpu_usage_idle)", "count_values(1, cpu_usage_idle)", "cpu_usage_idle == on() bool",
        "((((((((((", "\u0000", "rate(cpu_usage_idle[-5m])");
    for (String query : bad) {
      for (String path : List.of("/api/v1/query?time=" + (T0 / 1000 + 600) + "&query=",
          "/api/v1/query_range?start=" + (T0 / 1000) + "&end=" + (T0 / 1000 + 600) + "&step=60&query=")) {
        HttpResponse<String> response = api.get(path + encode(query));
        assertEquals(400, response.statusCode(), query + ": " + response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("bad_data", body.get("errorType").asText(), query);
        assertTrue(body.get("error").asText().matches("(?s)\\d+:\\d+: parse error: .+"), query + ": " + body);
      }
    }
  }

  @Test
  void timeoutAnswersTheTimeoutType() throws Exception {
    // work enough that no machine ends it within the millisecond (a subquery of 10 minutes at 1 s once
    // did, in CI): the deadline is checked before each series' windows and at each step of the sum
    HttpResponse<String> slow = api.get("/api/v1/query_range?timeout=1ms&query="
        + encode("sum(count_over_time(cpu_usage_idle[1h:100ms]))") + "&start=" + (T0 / 1000) + "&end=" + (T0 / 1000 + 900)
        + "&step=1");
    assertEquals(503, slow.statusCode(), slow.body());
    assertEquals("timeout", JSON.readTree(slow.body()).get("errorType").asText());
  }

  @Test
  void gzipWhenTheClientAcceptsItAndTheAnswerIsLarge() throws Exception {
    HttpResponse<byte[]> zipped = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
        + "/api/v1/query_range?query=" + encode("cpu_usage_idle") + "&start=" + (T0 / 1000) + "&end=" + (T0 / 1000 + 900)
        + "&step=1")).header("Accept-Encoding", "gzip").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""));
    JsonNode body = JSON.readTree(new GZIPInputStream(new ByteArrayInputStream(zipped.body())));
    assertEquals(2, body.at("/data/result").size());
    assertTrue(body.toString().length() > ResponseCompression.MIN_BYTES, body.toString());

    // a small answer fits a packet as it is: compressing it cost more than answering
    HttpResponse<byte[]> small = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v1/query?query="
        + encode("cpu_usage_idle") + "&time=" + (T0 / 1000 + 600))).header("Accept-Encoding", "gzip")
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals("", small.headers().firstValue("Content-Encoding").orElse(""));
    assertTrue(small.body().length < ResponseCompression.MIN_BYTES, small.body().length + " bytes");
    assertEquals(2, JSON.readTree(small.body()).at("/data/result").size());
  }

  @Test
  void seriesLabelsAndLabelValues() throws Exception {
    String range = "&start=" + (T0 / 1000) + "&end=" + (T0 / 1000 + 900);
    JsonNode series = get("/api/v1/series?match[]=" + encode("cpu_usage_idle") + "&match[]=" + encode("{job=\"api\"}") + range);
    assertEquals(3, series.get("data").size(), series.toString());
    assertEquals("http_requests_total", series.at("/data/2/__name__").asText(), "sorted by labels");
    assertEquals(List.of("U__host_2e_zone", "__name__", "host", "job"),
        JSON.convertValue(get("/api/v1/labels?" + range.substring(1)).get("data"), List.class));
    assertEquals(List.of("cpu_usage_idle", "http_requests_total", "servers.web1.load"),
        JSON.convertValue(get("/api/v1/label/__name__/values?" + range.substring(1)).get("data"), List.class),
        "string series are no PromQL series");
    assertEquals(List.of("web1", "web2"), JSON.convertValue(get("/api/v1/label/host/values?match[]="
        + encode("cpu_usage_idle")).get("data"), List.class));
    assertEquals(List.of("eu", "us"), JSON.convertValue(get("/api/v1/label/U__host_2e_zone/values").get("data"), List.class));
    JsonNode limited = get("/api/v1/label/__name__/values?limit=1" + range);
    assertEquals(1, limited.get("data").size());
    assertEquals("results truncated due to limit", limited.at("/warnings/0").asText());
    assertEquals(400, api.get("/api/v1/series").statusCode(), "no match[] parameter provided");
    assertEquals(0, get("/api/v1/series?match[]=" + encode("cpu_usage_idle") + "&start=1&end=2").get("data").size(),
        "no series has data in 1970");
  }

  @Test
  void nameAndLabelMappingSelectsWhatASolrQuerySelects() throws Exception {
    QueryResult promql = api.instant("cpu_usage_idle{host=\"web1\"}", T0 + 600_000);
    assertEquals(1, ((QueryResult.Vector) promql.data()).samples().size());
    JsonNode solr = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(server.solrUrl()
        + "/chronix/query?wt=json&q=" + encode("name:cpu_usage_idle AND host:web1"))).GET().build(),
        HttpResponse.BodyHandlers.ofString()).body());
    JsonNode doc = solr.at("/response/docs/0");
    assertEquals(1, solr.at("/response/numFound").asInt());
    assertEquals("influx", doc.get("_protocol").asText(), "what the series was written as is stored");
    assertEquals("cpu", doc.get("_influx_measurement").asText());
    assertEquals("usage_idle", doc.get("_influx_field").asText());
    // a dotted Graphite-style name is selected quoted (Prometheus 3) or by __name__
    assertEquals(1, ((QueryResult.Vector) api.instant("{\"servers.web1.load\"}", T0 + 600_000).data()).samples().size());
    assertEquals(1, ((QueryResult.Vector) api.instant("{__name__=~\"servers\\\\..*\"}", T0 + 600_000).data()).samples().size());
    // an escaped label name in a query means the raw attribute
    assertEquals(1, ((QueryResult.Vector) api.instant("cpu_usage_idle{U__host_2e_zone=\"us\"}", T0 + 600_000).data())
        .samples().size());
    assertEquals(1, ((QueryResult.Vector) api.instant("cpu_usage_idle{\"host.zone\"=\"us\"}", T0 + 600_000).data())
        .samples().size());
  }

  /**
   * The engine reads the series in this process as the plugin's points (no blob); a reader through
   * SolrJ gets them as blobs. Both see the same samples, stored and buffered alike.
   */
  @Test
  void seriesReadInTheProcessEqualThoseReadThroughSolrJ() throws Exception {
    List<io.chronix.analysis.promql.model.LabelMatcher> matchers = List.of(
        io.chronix.analysis.promql.model.LabelMatcher.equal("__name__", "cpu_usage_idle"),
        io.chronix.analysis.promql.model.LabelMatcher.equal("host", "web1"));
    List<io.chronix.analysis.promql.engine.RawSeries> throughSolrJ;
    try (Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      throughSolrJ = new SolrSeriesSource(solr, "chronix", 50).select(matchers, T0, T0 + 900_000);
    }
    assertEquals(1, throughSolrJ.size());
    io.chronix.analysis.promql.engine.RawSeries expected = throughSolrJ.get(0);
    assertEquals(91, expected.size(), "61 points written as records, 30 still buffered");
    QueryResult result = api.range("cpu_usage_idle{host=\"web1\"}", T0, T0 + 900_000, 10_000);
    QueryResult.Series series = ((QueryResult.Matrix) result.data()).series().get(0);
    assertEquals(expected.size(), series.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.timestamp(i), series.timestamps()[i]);
      assertEquals(expected.value(i), series.values()[i]);
    }
  }

  @Test
  void recordsWrittenBeforeOriginAttributesStayQueryable() throws Exception {
    Points points = new Points();
    for (int i = 0; i < 10; i++) {
      points.add((T0 + i * 10_000L) * 1_000_000L, i);
    }
    SeriesKey old = SeriesKey.metric("legacy_metric", Map.of("host", "old"));
    try (Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      SolrInputDocument legacy = RecordDocuments.toDocument(new Chunker(100, ChunkCodec.lossless()).chunk(old, points).get(0), 0);
      legacy.removeField(RecordFields.WRITE_ORDER); // written before the write order field existed
      solr.add("chronix", legacy);
      solr.commit("chronix");
    }
    QueryResult result = api.instant("max_over_time(legacy_metric{host=\"old\"}[5m])", T0 + 100_000);
    QueryResult.Sample sample = ((QueryResult.Vector) result.data()).samples().get(0);
    assertEquals(Labels.of("host", "old"), sample.labels());
    assertEquals(9, sample.value());
  }

  @Test
  void chronixAnalysesAreFunctions() throws Exception {
    QueryResult trend = api.instant("chronix_trend(http_requests_total[10m])", T0 + 600_000);
    assertEquals(1.0, ((QueryResult.Vector) trend.data()).samples().get(0).value(), 1e-9, "10 per 10 s: slope 1/s");
    QueryResult outliers = api.instant("chronix_outlier(cpu_usage_idle[10m])", T0 + 600_000);
    assertEquals(2, ((QueryResult.Vector) outliers.data()).samples().size());
    HttpResponse<String> badArgument = api.get("/api/v1/query?query=" + encode("chronix_movavg(cpu_usage_idle[10m], -5)"));
    assertEquals(400, badArgument.statusCode());
    assertTrue(badArgument.body().contains("1:1: chronix_movavg: movavg: window must be positive"), badArgument.body());
  }

  @Test
  void metadataBuildInfoAndEmptyAnswers() throws Exception {
    assertTrue(get("/api/v1/metadata").get("data").isObject());
    assertEquals(PrometheusApiServlet.PROMETHEUS_VERSION, get("/api/v1/status/buildinfo").at("/data/version").asText());
    assertEquals(0, get("/api/v1/query_exemplars?query=up").get("data").size());
    assertEquals(0, get("/api/v1/rules").at("/data/groups").size());
    assertFalse(get("/api/v1/alerts").at("/data/alerts").isMissingNode());
  }

  @Test
  void tooManySeriesIsAnExecutionError() {
    PromQlException error = assertThrows(PromQlException.class, () -> {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 60; i++) {
        lines.append("many,n=").append(i).append(" value=1 ").append(T0 + DAY).append('\n');
      }
      assertEquals(204, post(server.baseUrl() + "/write?precision=ms", lines.toString(), "text/plain").statusCode());
      api.instant("many", T0 + DAY);
    });
    assertEquals(PromQlException.Type.EXECUTION, error.type());
    assertTrue(error.getMessage().contains("more than promql.maxSeries (50)"), error.getMessage());
  }
}
