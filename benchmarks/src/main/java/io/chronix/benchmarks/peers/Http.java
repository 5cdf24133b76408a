package io.chronix.benchmarks.peers;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The one HTTP client of the comparison: HTTP/1.1 with keep-alive for every server, so no server
 * gets a different protocol or connection handling from the client.
 */
final class Http {

  static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private Http() {}

  static String get(URI uri) throws IOException, InterruptedException {
    HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    return expectOk(uri, response);
  }

  static String post(URI uri, String form) throws IOException, InterruptedException {
    HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    return expectOk(uri, response);
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String expectOk(URI uri, HttpResponse<String> response) {
    if (response.statusCode() / 100 != 2) {
      String body = response.body();
      throw new IllegalStateException(uri + " answered " + response.statusCode() + ": "
          + body.substring(0, Math.min(500, body.length())));
    }
    return response.body();
  }
}
