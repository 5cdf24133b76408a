package io.chronix.ingest.protocol.influx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.promql.PrometheusApiClient;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What InfluxDB 1.x clients do before and while they write: ping for the version header, list and
 * create databases through {@code /query} (form body as Telegraf sends it, URL parameter as
 * benchmark loaders send it), then write gzipped line protocol into the database they created.
 */
class InfluxHandshakeTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = TestHttp.CLIENT;

  @TempDir static Path dataDir;
  private static ChronixServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())).start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return HTTP.send(request.header("User-Agent", "Telegraf/1.28.5").build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> queryForm(String q) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/query"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("q=" + URLEncoder.encode(q, StandardCharsets.UTF_8))));
  }

  private static HttpResponse<String> queryUrl(String method, String q) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/query?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)))
        .method(method, HttpRequest.BodyPublishers.noBody()));
  }

  @Test
  void pingCarriesTheVersionHeaders() throws Exception {
    HttpResponse<String> ping = send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/ping")).GET());
    assertEquals(204, ping.statusCode());
    assertEquals(InfluxHeaders.VERSION, ping.headers().firstValue("X-Influxdb-Version").orElse(""));
    HttpResponse<String> verbose = send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/ping?verbose=true")).GET());
    assertEquals(200, verbose.statusCode());
    assertEquals(InfluxHeaders.VERSION, JSON.readTree(verbose.body()).get("version").asText());
  }

  @Test
  void telegrafCreatesItsDatabaseAndWrites() throws Exception {
    HttpResponse<String> created = queryForm("CREATE DATABASE \"telegraf\"");
    assertEquals(200, created.statusCode());
    assertEquals("{\"results\":[{\"statement_id\":0}]}", created.body(), "InfluxDB's answer to a successful create");
    assertEquals(InfluxHeaders.VERSION, created.headers().firstValue("X-Influxdb-Version").orElse(""));

    long nanos = 1_704_067_200_000_000_000L;
    String lines = "cpu,cpu=cpu-total,host=web1 usage_idle=97.5,usage_user=1.5 " + nanos + "\n"
        + "mem,host=web1 used_percent=41.25 " + nanos + "\n";
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
      out.write(lines.getBytes(StandardCharsets.UTF_8));
    }
    HttpResponse<String> written = send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write?db=telegraf"))
        .header("Content-Encoding", "gzip").header("Content-Type", "text/plain; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofByteArray(zipped.toByteArray())));
    assertEquals(204, written.statusCode(), written.body());
    assertEquals(InfluxHeaders.VERSION, written.headers().firstValue("X-Influxdb-Version").orElse(""));

    QueryResult idle = new PrometheusApiClient(server.baseUrl()).instant("cpu_usage_idle{host=\"web1\"}", nanos / 1_000_000);
    QueryResult.Sample sample = ((QueryResult.Vector) idle.data()).samples().get(0);
    assertEquals(Labels.of("__name__", "cpu_usage_idle", "cpu", "cpu-total", "host", "web1"), sample.labels());
    assertEquals(97.5, sample.value());
  }

  @Test
  void loadersListAndCreateWithTheStatementInTheUrl() throws Exception {
    assertEquals(200, queryUrl("POST", "create database benchmark_db").statusCode());
    JsonNode shown = JSON.readTree(queryUrl("GET", "show databases").body());
    JsonNode series = shown.at("/results/0/series/0");
    assertEquals("databases", series.get("name").asText());
    assertEquals("name", series.at("/columns/0").asText());
    assertTrue(series.get("values").toString().contains("[\"benchmark_db\"]"), series.toString());
    assertTrue(series.get("values").toString().contains("[\"chronix\"]"),
        "the store's own database is always there: " + series);
  }

  @Test
  void severalStatementsAnswerInOrder() throws Exception {
    JsonNode body = JSON.readTree(queryForm("CREATE DATABASE a; SHOW DATABASES").body());
    assertEquals(0, body.at("/results/0/statement_id").asInt());
    assertEquals(1, body.at("/results/1/statement_id").asInt());
    assertTrue(body.at("/results/1/series/0/values").toString().contains("[\"a\"]"));
  }

  @Test
  void whatIsNotSupportedSaysSoWithoutTouchingData() throws Exception {
    HttpResponse<String> drop = queryForm("DROP DATABASE telegraf");
    assertEquals(200, drop.statusCode(), "InfluxDB reports statement errors inside the results");
    assertTrue(JSON.readTree(drop.body()).at("/results/0/error").asText().contains("DROP DATABASE is not supported"));
    HttpResponse<String> select = queryForm("SELECT mean(usage_idle) FROM cpu");
    assertTrue(JSON.readTree(select.body()).at("/results/0/error").asText().contains("/api/v1/query"), select.body());
    HttpResponse<String> missing = queryForm("");
    assertEquals(400, missing.statusCode());
    assertTrue(JSON.readTree(missing.body()).get("error").asText().contains("missing required parameter \"q\""));
  }
}
