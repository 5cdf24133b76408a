package io.chronix.ingest.http;

import io.chronix.core.series.Precision;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.influx.InfluxHeaders;
import io.chronix.ingest.protocol.influx.LineProtocolParser;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code POST /write} (InfluxDB 1.x) and {@code POST /api/v2/write} (2.x): line protocol. 204 when
 * every line was stored; 400 naming each rejected line (the valid ones are stored, as InfluxDB's
 * partial write does); 503 with Retry-After when the server is overloaded or stopping (nothing
 * stored: clients retry).
 */
public final class WriteServlet extends HttpServlet {

  private static final int MAX_REPORTED_ERRORS = 100;

  private final transient BatchWriter writer;
  private final transient RequestGate gate;
  private final long maxRequestBytes;
  private final transient LineProtocolParser.SeriesCache seriesCache = new LineProtocolParser.SeriesCache();

  public WriteServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes) {
    this.writer = writer;
    this.gate = gate;
    this.maxRequestBytes = maxRequestBytes;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    InfluxHeaders.add(response);
    // the body first: asking for a parameter would let the container eat a form-encoded body
    String body;
    try {
      body = RequestBodies.readUtf8(request, maxRequestBytes);
    } catch (MalformedBodyException e) {
      JsonResponses.error(response, e.status(), e.getMessage());
      return;
    }
    Precision precision;
    try {
      String requested = request.getParameter("precision");
      precision = requested == null || requested.isEmpty() ? Precision.NANOSECONDS : Precision.parse(requested);
    } catch (IllegalArgumentException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return;
    }
    Instant now = Instant.now();
    long nowNanos = precision.toNanos(precision.fromNanos(now.getEpochSecond() * 1_000_000_000L + now.getNano()));
    PointBatch batch = new PointBatch(Math.max(64, body.length() / 40));
    ParseResult result = new LineProtocolParser(precision, nowNanos, seriesCache).parse(body, batch);
    if (!BatchStorage.store(batch, writer, gate, response)) {
      return;
    }
    if (!result.hasErrors()) {
      response.setStatus(204);
      return;
    }
    List<Map<String, Object>> errors = new ArrayList<>();
    for (LineError error : result.errors().subList(0, Math.min(MAX_REPORTED_ERRORS, result.errors().size()))) {
      errors.add(Map.of("line", error.line(), "problem", error.problem()));
    }
    Map<String, Object> body400 = new LinkedHashMap<>();
    body400.put("error", "partial write: " + result.errors().size() + " line(s) rejected, "
        + result.points() + " point(s) stored; first: " + result.errors().get(0));
    body400.put("rejected", result.errors().size());
    body400.put("stored", result.points());
    body400.put("errors", errors);
    JsonResponses.send(response, 400, body400);
  }
}
