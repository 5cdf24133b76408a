package io.chronix.ingest.promql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * A test client of a Prometheus-compatible HTTP API (ours, or a real Prometheus): answers as
 * {@link QueryResult}, errors as {@link PromQlException} of the reported type; remote write too.
 */
public final class PrometheusApiClient {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = TestHttp.CLIENT;

  private final String baseUrl;

  public PrometheusApiClient(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  public QueryResult instant(String query, long timeMillis) throws IOException, InterruptedException {
    return result(post("/api/v1/query", Map.of("query", query, "time", seconds(timeMillis))));
  }

  public QueryResult range(String query, long start, long end, long step) throws IOException, InterruptedException {
    return result(post("/api/v1/query_range", Map.of("query", query, "start", seconds(start), "end", seconds(end),
        "step", seconds(step))));
  }

  static String seconds(long millis) {
    return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }

  public HttpResponse<String> post(String path, Map<String, String> form) throws IOException, InterruptedException {
    StringBuilder body = new StringBuilder();
    for (Map.Entry<String, String> entry : form.entrySet()) {
      if (body.length() > 0) {
        body.append('&');
      }
      body.append(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8)).append('=')
          .append(URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8));
    }
    return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + path))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Sends series through Prometheus remote write; returns the HTTP status. */
  public int remoteWrite(List<TimeSeries> series) throws IOException, InterruptedException {
    byte[] body = Snappy.compress(WriteRequest.newBuilder().addAllTimeseries(series).build().toByteArray());
    return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/write"))
        .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "snappy")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  public static TimeSeries timeSeries(Labels labels, long[] timestamps, double[] values) {
    TimeSeries.Builder series = TimeSeries.newBuilder();
    for (int i = 0; i < labels.size(); i++) {
      series.addLabels(Label.newBuilder().setName(labels.name(i)).setValue(labels.value(i)));
    }
    for (int i = 0; i < timestamps.length; i++) {
      series.addSamples(Sample.newBuilder().setTimestamp(timestamps[i]).setValue(values[i]));
    }
    return series.build();
  }

  /** Parses an API answer; an error answer becomes the exception the engine would have thrown. */
  public static QueryResult result(HttpResponse<String> response) throws IOException {
    JsonNode body = JSON.readTree(response.body());
    if (!"success".equals(body.path("status").asText())) {
      PromQlException.Type type = PromQlException.Type.INTERNAL;
      for (PromQlException.Type candidate : PromQlException.Type.values()) {
        if (candidate.apiName().equals(body.path("errorType").asText())) {
          type = candidate;
        }
      }
      throw new PromQlException(type, body.path("error").asText());
    }
    JsonNode data = body.get("data");
    JsonNode result = data.get("result");
    QueryResult.Data parsed;
    switch (data.get("resultType").asText()) {
      case "scalar":
        parsed = new QueryResult.Scalar(millis(result.get(0)), GoFloats.parse(result.get(1).asText()));
        break;
      case "string":
        parsed = new QueryResult.Text(millis(result.get(0)), result.get(1).asText());
        break;
      case "vector": {
        List<QueryResult.Sample> samples = new ArrayList<>();
        long time = 0;
        for (JsonNode sample : result) {
          time = millis(sample.get("value").get(0));
          samples.add(new QueryResult.Sample(labels(sample.get("metric")), GoFloats.parse(sample.get("value").get(1).asText())));
        }
        parsed = new QueryResult.Vector(time, samples);
        break;
      }
      default: {
        List<QueryResult.Series> series = new ArrayList<>();
        for (JsonNode s : result) {
          JsonNode values = s.get("values");
          long[] t = new long[values.size()];
          double[] v = new double[values.size()];
          for (int i = 0; i < values.size(); i++) {
            t[i] = millis(values.get(i).get(0));
            v[i] = GoFloats.parse(values.get(i).get(1).asText());
          }
          series.add(new QueryResult.Series(labels(s.get("metric")), t, v, t.length));
        }
        parsed = new QueryResult.Matrix(series);
      }
    }
    return new QueryResult(parsed, strings(body.get("warnings")), strings(body.get("infos")));
  }

  private static long millis(JsonNode seconds) {
    return seconds.decimalValue().movePointRight(3).longValue();
  }

  static Labels labels(JsonNode metric) {
    Labels.Builder labels = new Labels.Builder();
    Iterator<Map.Entry<String, JsonNode>> fields = metric.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      labels.set(field.getKey(), field.getValue().asText());
    }
    return labels.build();
  }

  private static List<String> strings(JsonNode array) {
    List<String> strings = new ArrayList<>();
    if (array != null) {
      array.forEach(node -> strings.add(node.asText()));
    }
    return strings;
  }
}
