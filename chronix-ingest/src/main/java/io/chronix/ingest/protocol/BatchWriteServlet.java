package io.chronix.ingest.protocol;

import io.chronix.ingest.http.BatchStorage;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * A {@code POST} endpoint whose body (gzip allowed) is parsed completely into one batch and then
 * stored at once, so that it is logged and acknowledged as a unit.
 *
 * <ul>
 *   <li>204: every item of the body was stored;
 *   <li>400: the body is unreadable (nothing stored), or some items were rejected: the valid ones
 *       are stored and the answer names each rejected item by its 1-based position:
 *       {@code {"error": "...", "failed": n, "success": m, "errors": [{"<item>": i, "problem": "..."}]}}
 *       where {@code failed} counts rejected items and {@code success} stored points;
 *   <li>413 / 415: body too large or in an unknown encoding ({@link RequestBodies});
 *   <li>503 with Retry-After: overloaded or shutting down, nothing stored; the client resends;
 *   <li>500: storing failed for another reason (the server's fault, not the body's).
 * </ul>
 */
public abstract class BatchWriteServlet extends HttpServlet {

  private static final int MAX_REPORTED_ERRORS = 100;

  private final transient BatchWriter writer;
  private final transient RequestGate gate;
  private final long maxRequestBytes;
  private final String item;

  /** @param item what the body consists of, the key of each reported error ("point", "value_list") */
  protected BatchWriteServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes, String item) {
    this.writer = writer;
    this.gate = gate;
    this.maxRequestBytes = maxRequestBytes;
    this.item = item;
  }

  /** Delivers the valid items' points; each error's number is the 1-based position of its item. */
  protected abstract ParseResult parse(String body, PointSink sink) throws IOException, MalformedBodyException;

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String body;
    try {
      body = RequestBodies.readUtf8(request, maxRequestBytes);
    } catch (MalformedBodyException e) {
      JsonResponses.error(response, e.status(), e.getMessage());
      return;
    }
    PointBatch batch = new PointBatch();
    ParseResult result;
    try {
      result = parse(body, batch);
    } catch (MalformedBodyException e) {
      JsonResponses.error(response, e.status(), e.getMessage());
      return;
    }
    if (!BatchStorage.store(batch, writer, gate, response)) {
      return;
    }
    if (!result.hasErrors()) {
      response.setStatus(204);
      return;
    }
    List<LineError> rejected = result.errors();
    List<Map<String, Object>> errors = new ArrayList<>();
    for (LineError error : rejected.subList(0, Math.min(MAX_REPORTED_ERRORS, rejected.size()))) {
      errors.add(Map.of(item, error.line(), "problem", error.problem()));
    }
    LineError first = rejected.get(0);
    Map<String, Object> answer = new LinkedHashMap<>();
    String words = item.replace('_', ' ');
    answer.put("error", rejected.size() + " " + words + "(s) rejected, " + result.points() + " point(s) stored; first: "
        + words + " " + first.line() + ": " + first.problem());
    answer.put("failed", rejected.size());
    answer.put("success", result.points());
    answer.put("errors", errors);
    JsonResponses.send(response, 400, answer);
  }
}
