package io.chronix.ingest.rollup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** What the rollup tests ask a server and how they compare the tier's answers with the records'. */
final class TierAnswers {

  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final long T0 = 1_700_006_400_000L; // a multiple of a day
  static final long HOUR = 3_600_000L;
  static final long DAY = 86_400_000L;

  private TierAnswers() {}

  /**
   * A JSON-lines import of a series {@code load{host=...}} from T0 for the given days: a point every
   * 10 to 40 s, one exactly on a 5-minute boundary now and then, one in {@code nanOneIn} NaN (0:
   * none).
   */
  static String series(String host, int days, Random random, int nanOneIn) {
    StringBuilder values = new StringBuilder();
    StringBuilder times = new StringBuilder();
    long t = T0;
    while (t < T0 + days * DAY) {
      values.append(values.length() == 0 ? "" : ",")
          .append(nanOneIn > 0 && random.nextInt(nanOneIn) == 0 ? "NaN" : String.valueOf(random.nextInt(100_000) / 16.0));
      times.append(times.length() == 0 ? "" : ",").append(t);
      long next = t + 10_000 + random.nextInt(30_000);
      long boundary = (t / 300_000 + 1) * 300_000;
      t = next > boundary && random.nextInt(3) == 0 ? boundary : next;
    }
    return "{\"metric\":{\"__name__\":\"load\",\"host\":\"" + host + "\"},\"values\":[" + values
        + "],\"timestamps\":[" + times + "]}\n";
  }

  /** A series query answered from a tier where it can ({@code rollups}) or from the records. */
  static JsonNode query(ChronixServer server, String name, String q, String cf, boolean rollups) throws Exception {
    String url = server.solrUrl() + "/chronix/query?wt=json&cj=name,host&fl=host,points&q="
        + enc("name:" + name + " AND " + q) + "&cf=" + enc(cf) + "&chronix.rollups=" + rollups;
    return JSON.readTree(ok(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString())).body());
  }

  static void post(ChronixServer server, String path, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(204, response.statusCode(), path + ": " + response.body());
  }

  /** A POST that must answer 200; its body. */
  static JsonNode postForJson(ChronixServer server, String path) throws Exception {
    return JSON.readTree(ok(HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString())).body());
  }

  private static HttpResponse<String> ok(HttpResponse<String> response) {
    assertEquals(200, response.statusCode(), response.body());
    return response;
  }

  /** Equal timestamps; equal values, or within rounding for sums and averages (added in another order). */
  static void assertSame(JsonNode raw, JsonNode tier, String what, boolean rounding) {
    assertEquals(raw.size(), tier.size(), what);
    for (int s = 0; s < raw.size(); s++) {
      JsonNode expected = raw.get(s).at("/points");
      JsonNode actual = tier.get(s).at("/points");
      assertEquals(expected.get("timestamps"), actual.get("timestamps"), what);
      for (int i = 0; i < expected.get("values").size(); i++) {
        double e = expected.get("values").get(i).asDouble();
        double a = actual.get("values").get(i).asDouble();
        if (rounding) {
          assertEquals(e, a, Math.abs(e) * 1e-12, what + " point " + i);
        } else {
          assertEquals(e, a, 0, what + " point " + i);
        }
      }
      assertEquals(raw.get(s).get("functions"), tier.get(s).get("functions"), what);
    }
  }

  static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
