package io.chronix.ingest.metrics;

import io.chronix.ingest.http.JsonResponses;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/v1/status/chronix}: the samples of {@code /metrics} and the last logged
 * problems as JSON, for the console's status page (read role, like the rest of {@code /api/v1}).
 */
public final class StatusApiServlet extends HttpServlet {

  private final transient ServerMetrics metrics;
  private final transient RecentErrors errors;

  public StatusApiServlet(ServerMetrics metrics, RecentErrors errors) {
    this.metrics = metrics;
    this.errors = errors;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    List<Map<String, Object>> samples = new ArrayList<>();
    try {
      for (ServerMetrics.Sample sample : metrics.collect()) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", sample.name() + (sample.kind() == ServerMetrics.Kind.COUNTER ? "_total" : ""));
        json.put("labels", sample.labels());
        json.put("value", sample.value());
        samples.add(json);
      }
    } catch (IOException e) {
      JsonResponses.error(response, 503, "status not available now: " + e.getMessage());
      return;
    }
    List<Map<String, Object>> problems = new ArrayList<>();
    for (RecentErrors.Entry entry : errors.entries()) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("time", entry.time().toString());
      json.put("level", entry.level());
      json.put("logger", entry.logger());
      json.put("message", entry.message());
      problems.add(json);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "success");
    body.put("time", System.currentTimeMillis());
    body.put("metrics", samples);
    body.put("problems", problems);
    JsonResponses.send(response, 200, body);
  }
}
