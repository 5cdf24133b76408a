package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.ingest.TestHttp;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ServletHarness;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A form read ahead gives the parameters Jetty's own parse gives: random forms posted to both, with
 * query strings beside them; the limits give clear errors; other requests are left to Jetty.
 */
class FormParametersTest {

  private static final HttpClient HTTP = TestHttp.CLIENT;
  private static final String FORM = "application/x-www-form-urlencoded";
  private static ServletHarness server;

  @BeforeAll
  static void start() throws Exception {
    server = new ServletHarness(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getPathInfo().equals("/ahead")) {
          try {
            FormParameters.readAhead(request);
          } catch (MalformedBodyException e) {
            response.setStatus(e.status());
            response.getWriter().write(e.getMessage());
            return;
          }
        }
        Map<String, String> sorted = new TreeMap<>();
        request.getParameterMap().forEach((name, values) -> sorted.put(name, Arrays.toString(values)));
        String body = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(sorted + " body=" + body);
      }
    }, "/form/*");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void randomFormsGiveJettysParameters() throws Exception {
    Random random = new Random(7);
    String[] names = {"query", "match[]", "start", "end", "step", "é", "a b", "x&y=z"};
    String[] values = {"", "up", "rate(x[5m])", "{host=\"h 1\"}", "1+1", "100%", "ünïcödé ✓", "a=b&c", "  "};
    for (int form = 0; form < 300; form++) {
      StringBuilder body = new StringBuilder();
      int fields = random.nextInt(6);
      for (int i = 0; i < fields; i++) {
        String name = names[random.nextInt(names.length)];
        String value = values[random.nextInt(values.length)];
        body.append(i > 0 ? "&" : "");
        if (random.nextInt(4) == 0 && !value.contains("&") && !value.contains("%") && !value.contains("+")
            && !value.contains("=")) {
          body.append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=').append(value); // raw UTF-8 as sent
        } else {
          body.append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
              .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
      }
      String query = random.nextBoolean() ? "?start=" + random.nextInt(9) + "&query=q" + random.nextInt(3) : "";
      HttpResponse<String> jetty = post("/jetty" + query, body.toString(), FORM);
      HttpResponse<String> ahead = post("/ahead" + query, body.toString(), FORM);
      assertEquals(200, ahead.statusCode(), ahead.body());
      assertEquals(jetty.body(), ahead.body(), "form " + form + ": " + body + query);
    }
  }

  @Test
  void aFormBeyondTheLimitsIsRefusedWithWhatAndHowMuch() throws Exception {
    HttpResponse<String> large = post("/ahead", "query=" + "x".repeat(ContextHandler.DEFAULT_MAX_FORM_CONTENT_SIZE), FORM);
    assertEquals(413, large.statusCode());
    assertEquals("request body exceeds " + ContextHandler.DEFAULT_MAX_FORM_CONTENT_SIZE
        + " bytes (the largest form-encoded body read)", large.body());
    StringBuilder keys = new StringBuilder();
    for (int i = 0; i <= ContextHandler.DEFAULT_MAX_FORM_KEYS; i++) {
      keys.append(i > 0 ? "&" : "").append('k').append(i).append("=1");
    }
    HttpResponse<String> many = post("/ahead", keys.toString(), FORM);
    assertEquals(400, many.statusCode());
    assertEquals("form-encoded body: " + (ContextHandler.DEFAULT_MAX_FORM_KEYS + 1) + " names, more than the "
        + ContextHandler.DEFAULT_MAX_FORM_KEYS + " a form may have", many.body());
    assertEquals(400, post("/jetty", keys.toString(), FORM).statusCode(), "as Jetty's parse refuses it");
    HttpResponse<String> charset = post("/ahead", "query=up", FORM + "; charset=no-such-charset");
    assertEquals(415, charset.statusCode());
    assertEquals("unsupported charset 'no-such-charset' of a form-encoded body", charset.body());
  }

  @Test
  void otherRequestsAreLeftToJetty() throws Exception {
    HttpResponse<String> json = post("/ahead?query=up", "{\"query\":\"down\"}", "application/json");
    assertEquals("{query=[up]} body={\"query\":\"down\"}", json.body(), "a body that is not a form stays unread");
    HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(server.url().replace("/*", "")
        + "/ahead?query=up&query=down")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals("{query=[up, down]} body=", get.body());
    HttpResponse<String> latin = post("/ahead", "query=caf%E9", FORM + "; charset=ISO-8859-1");
    assertEquals(post("/jetty", "query=caf%E9", FORM + "; charset=ISO-8859-1").body(), latin.body());
    assertEquals("{query=[café]} body=", latin.body(), "the form's own charset decodes it");
  }

  private static HttpResponse<String> post(String path, String body, String contentType)
      throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.url().replace("/*", "") + path))
        .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .build(), HttpResponse.BodyHandlers.ofString());
  }
}
