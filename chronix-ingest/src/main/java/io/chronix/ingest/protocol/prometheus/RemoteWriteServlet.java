package io.chronix.ingest.protocol.prometheus;

import io.chronix.ingest.http.BatchStorage;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code POST} Prometheus remote write 1.0 ({@link RemoteWriteParser}).
 *
 * <p>The status codes follow what Prometheus does with them: it retries 5xx and drops 4xx. So 204
 * when every series was stored; 400 (JSON naming each rejected series by its 1-based index) when
 * the body is unreadable or some series were bad, the good ones stored all the same, since a retry
 * could not fix the bad ones; 503 with Retry-After when the server is overloaded or shutting down
 * and nothing was stored; 500 when storing failed otherwise.
 */
public final class RemoteWriteServlet extends HttpServlet {

  private static final int MAX_REPORTED_ERRORS = 100;
  private static final String V1_MESSAGE = "prometheus.WriteRequest";

  private final transient BatchWriter writer;
  private final transient RequestGate gate;
  private final transient RemoteWriteParser parser;
  private final long maxRequestBytes;

  /**
   * @param maxRequestBytes limit on the body as sent and again once decompressed, as the line
   *     protocol's limit applies to a gzip body after decompression
   */
  public RemoteWriteServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes) {
    this.writer = writer;
    this.gate = gate;
    this.maxRequestBytes = maxRequestBytes;
    this.parser = new RemoteWriteParser(maxRequestBytes);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String unsupported = unsupportedFormat(request);
    if (unsupported != null) {
      JsonResponses.error(response, 415, unsupported);
      return;
    }
    PointBatch batch = new PointBatch(256);
    ParseResult result;
    try {
      byte[] body = RequestBodies.readBytes(request, maxRequestBytes);
      result = parser.parse(body, batch);
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
    sendPartialWrite(response, result);
  }

  /** @return why the request's headers rule it out, or null when it may be remote write 1.0 */
  private static String unsupportedFormat(HttpServletRequest request) {
    String encoding = request.getHeader("Content-Encoding");
    // senders that leave the header out still compress: the protocol has no uncompressed form
    if (encoding != null && !encoding.isBlank() && !encoding.trim().equalsIgnoreCase("snappy")) {
      return "unsupported Content-Encoding '" + encoding + "': remote write bodies are snappy-compressed";
    }
    String type = request.getContentType();
    if (type != null) {
      for (String parameter : type.split(";")) {
        String[] pair = parameter.trim().split("=", 2);
        if (pair.length == 2 && pair[0].trim().toLowerCase(Locale.ROOT).equals("proto")
            && !pair[1].trim().equals(V1_MESSAGE)) {
          // 415 is what remote write 2.0 senders take as "fall back to 1.0"
          return "unsupported message '" + pair[1].trim() + "': only remote write 1.0 (" + V1_MESSAGE + ") is accepted";
        }
      }
    }
    return null;
  }

  private static void sendPartialWrite(HttpServletResponse response, ParseResult result) throws IOException {
    List<LineError> rejected = result.errors();
    List<Map<String, Object>> errors = new ArrayList<>();
    for (LineError error : rejected.subList(0, Math.min(MAX_REPORTED_ERRORS, rejected.size()))) {
      errors.add(Map.of("series", error.line(), "problem", error.problem()));
    }
    LineError first = rejected.get(0);
    Map<String, Object> body = new LinkedHashMap<>();
    // Prometheus logs only the start of the body: the message leads with the first problem
    body.put("error", "partial write: " + rejected.size() + " time series rejected, " + result.points()
        + " point(s) stored; first: time series " + first.line() + ": " + first.problem());
    body.put("rejected", rejected.size());
    body.put("stored", result.points());
    body.put("errors", errors);
    JsonResponses.send(response, 400, body);
  }
}
