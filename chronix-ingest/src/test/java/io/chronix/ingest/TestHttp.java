package io.chronix.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** A small HTTP client for tests against a running server. */
public final class TestHttp {

  static final ObjectMapper JSON = new ObjectMapper();
  /**
   * HTTP/1.1 as curl, Grafana and the agents speak it over http://. The JDK client's default, an
   * h2c upgrade on every new connection, once read a large HTTP/1.1 answer as HTTP/2 frames
   * ("Frame type(48) ... exceeds MAX_FRAME_SIZE") in CI.
   */
  public static final HttpClient CLIENT = builder().build();

  private TestHttp() {}

  /** A client builder speaking HTTP/1.1, for tests that need their own timeouts. */
  public static HttpClient.Builder builder() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
  }

  static HttpResponse<String> post(String url, String body, boolean gzip) throws IOException, InterruptedException {
    return post(url, body, gzip, null);
  }

  static HttpResponse<String> post(String url, String body, boolean gzip, String contentType)
      throws IOException, InterruptedException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (gzip) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
        zip.write(bytes);
      }
      bytes = out.toByteArray();
      request.header("Content-Encoding", "gzip");
    }
    return CLIENT.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a series query and returns the parsed JSON response; fails on non-200. */
  static JsonNode query(String solrUrl, String q, String extra) throws IOException, InterruptedException {
    return query(solrUrl, "chronix", q, extra);
  }

  /** The same in another collection. */
  static JsonNode query(String solrUrl, String collection, String q, String extra)
      throws IOException, InterruptedException {
    String url = solrUrl + "/" + collection + "/query?wt=json&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + extra;
    HttpResponse<String> response = get(url);
    if (response.statusCode() != 200) {
      throw new AssertionError("query " + q + " answered " + response.statusCode() + ": " + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** The points of a series document's {@code dataAsJson} (doubles). */
  static io.chronix.core.series.Points pointsOf(JsonNode doc) throws IOException {
    JsonNode data = JSON.readTree(doc.get("dataAsJson").asText());
    io.chronix.core.series.Points points = new io.chronix.core.series.Points();
    for (int i = 0; i < data.get("timestamps").size(); i++) {
      points.add(data.get("timestamps").get(i).asLong(), data.get("values").get(i).asDouble());
    }
    return points;
  }
}
