package io.chronix.ingest.lifecycle;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.ingest.Storage;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.promql.ApiParameters;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code POST /api/v1/admin/tsdb/delete_series} (admin role; Prometheus' path): {@code match[]}
 * selectors or {@code q} (a Solr query on the record fields), {@code start} and {@code end} (as
 * the Prometheus API takes times; default all time). The buffers are written first, so points
 * still buffered in the range go too; then {@link SeriesDeleter} removes the range. Answers 200
 * with what was deleted.
 */
public final class DeleteSeriesServlet extends HttpServlet {

  private final transient Storage storage;
  private final transient SeriesDeleter deleter;

  public DeleteSeriesServlet(Storage storage, SeriesDeleter deleter) {
    this.storage = storage;
    this.deleter = deleter;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    SeriesDeleter.Selection selection;
    long start;
    long end;
    try {
      String[] match = request.getParameterValues("match[]");
      selection = new SeriesDeleter.Selection(request.getParameter("q"),
          match == null ? List.of() : Arrays.asList(match));
      start = ApiParameters.timeOr("start", request.getParameter("start"), ApiParameters.MIN_TIME);
      end = ApiParameters.timeOr("end", request.getParameter("end"), ApiParameters.MAX_TIME);
    } catch (IllegalArgumentException | PromQlException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return;
    }
    SeriesDeleter.Result result;
    try {
      storage.writeBuffers();
      result = deleter.delete(selection, start, end);
    } catch (IllegalArgumentException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return;
    } catch (IOException e) {
      JsonResponses.error(response, 500, "delete failed part way; what it removed stays removed, the rest is "
          + "untouched; run it again: " + e.getMessage());
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "success");
    body.put("deletedPoints", result.pointsDeleted());
    body.put("deletedRecords", result.recordsDeleted());
    body.put("rewrittenRecords", result.recordsRewritten());
    body.put("deletedRollups", result.rollupsDeleted());
    body.put("rewrittenRollups", result.rollupsRewritten());
    JsonResponses.send(response, 200, body);
  }
}
