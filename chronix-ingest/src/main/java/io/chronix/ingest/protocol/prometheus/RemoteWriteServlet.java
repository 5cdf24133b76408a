package io.chronix.ingest.protocol.prometheus;

import io.chronix.ingest.http.BodyBuffers;
import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PartialWriteReport;
import io.chronix.ingest.protocol.WriteEndpoint;
import java.io.IOException;
import java.util.Locale;
import javax.servlet.http.HttpServletRequest;

/**
 * {@code POST} Prometheus remote write 1.0 ({@link RemoteWriteParser}).
 *
 * <p>The status codes follow what Prometheus does with them: it retries 5xx (and 429) and drops
 * other 4xx. So 204 when every series was stored; 400 (JSON naming each rejected series by its
 * 1-based index) when the body is unreadable or some series were bad, the good ones stored all the
 * same, since a retry could not fix the bad ones; 503 with Retry-After when the server is
 * overloaded or shutting down and nothing was stored ({@link WriteEndpoint}).
 */
public final class RemoteWriteServlet extends WriteEndpoint {

  private static final String V1_MESSAGE = "prometheus.WriteRequest";

  private final transient RemoteWriteParser parser;
  private final transient BodyBuffers bodies = new BodyBuffers();

  /**
   * @param maxRequestBytes limit on the body as sent and again once decompressed, as the line
   *     protocol's limit applies to a gzip body after decompression
   */
  public RemoteWriteServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes) {
    super(writer, gate, maxRequestBytes, PartialWriteReport.PROMETHEUS);
    this.parser = new RemoteWriteParser(maxRequestBytes);
  }

  @Override
  protected ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException {
    String unsupported = unsupportedFormat(request);
    if (unsupported != null) {
      throw MalformedBodyException.unsupported(unsupported);
    }
    RequestBodies.Body body = RequestBodies.readBytes(request, maxRequestBytes, bodies);
    try {
      return parser.parse(body.bytes(), body.length(), batch);
    } finally {
      bodies.give(body.bytes());
    }
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
}
