package io.chronix.ingest.protocol.influx;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.http.JsonResponses;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET|POST /query}: the part of InfluxDB 1.x's query endpoint that loaders and agents use
 * before they write: {@code SHOW DATABASES} and {@code CREATE DATABASE} (answered as InfluxDB
 * answers them), so that Telegraf and benchmark loaders start. Every database is the one store:
 * {@code db} of a write is accepted and ignored, so creating one only adds it to the list.
 * Data queries belong to the Prometheus API and the series query; other statements get an error
 * that says so, and {@code DROP DATABASE} is refused rather than pretended.
 */
public final class InfluxQueryServlet extends HttpServlet {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final transient Set<String> databases = new ConcurrentSkipListSet<>();

  public InfluxQueryServlet(String defaultDatabase) {
    databases.add(defaultDatabase);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    answer(request, response);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    answer(request, response);
  }

  private void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String q = request.getParameter("q");
    if (q == null || q.isBlank()) {
      JsonResponses.error(response, 400, "missing required parameter \"q\"");
      return;
    }
    List<Map<String, Object>> results = new ArrayList<>();
    List<List<String>> statements;
    try {
      statements = InfluxQlStatements.parse(q);
    } catch (IllegalArgumentException e) {
      JsonResponses.error(response, 400, "error parsing query: " + e.getMessage());
      return;
    }
    for (int i = 0; i < statements.size(); i++) {
      results.add(execute(i, statements.get(i)));
    }
    response.setStatus(200);
    response.setContentType("application/json");
    InfluxHeaders.add(response);
    JSON.writeValue(response.getOutputStream(), Map.of("results", results));
  }

  private Map<String, Object> execute(int id, List<String> words) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("statement_id", id);
    String first = words.get(0).toUpperCase(Locale.ROOT);
    String second = words.size() > 1 ? words.get(1).toUpperCase(Locale.ROOT) : "";
    if (first.equals("SHOW") && second.equals("DATABASES")) {
      List<List<String>> values = new ArrayList<>();
      for (String database : databases) {
        values.add(List.of(database));
      }
      result.put("series", List.of(Map.of("name", "databases", "columns", List.of("name"), "values", values)));
    } else if (first.equals("CREATE") && second.equals("DATABASE") && words.size() > 2) {
      databases.add(words.get(2));
    } else if (first.equals("DROP") && second.equals("DATABASE")) {
      result.put("error", "DROP DATABASE is not supported: all databases are one store, whose data stays");
    } else {
      result.put("error", "statement not supported: " + String.join(" ", words)
          + " (Chronix answers SHOW DATABASES and CREATE DATABASE here; query data through /api/v1/query"
          + " (PromQL) or /solr/<collection>/query)");
    }
    return result;
  }
}
