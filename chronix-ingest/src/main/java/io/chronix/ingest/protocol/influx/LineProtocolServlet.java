package io.chronix.ingest.protocol.influx;

import io.chronix.core.series.Precision;
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
import java.time.Instant;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code POST /write} (InfluxDB 1.x) and {@code POST /api/v2/write} (2.x): line protocol
 * ({@link LineProtocolParser}). Rejected lines are named in InfluxDB's {@code partial write}
 * answer, the valid ones stored, as InfluxDB does.
 */
public final class LineProtocolServlet extends WriteEndpoint {

  /**
   * Decoded body bytes a point is reserved for before parsing: a field with its share of the line
   * takes 12 bytes or more, usually twice that; one doubling is cheaper than arrays many times too
   * large.
   */
  static final int RESERVED_BYTES_PER_POINT = 24;

  private final transient LineProtocolParser.SeriesCache seriesCache = new LineProtocolParser.SeriesCache();
  private final transient BodyBuffers bodies = new BodyBuffers();

  public LineProtocolServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes) {
    super(writer, gate, maxRequestBytes, PartialWriteReport.INFLUX);
  }

  /**
   * Makes room in a batch for the points of a decoded body of this length. Sized once from the
   * decoded body: its length on the wire is unknown when chunked, and a fraction of it when
   * compressed.
   */
  public static void reserveFor(PointBatch batch, int decodedBytes) {
    batch.reserve(decodedBytes / RESERVED_BYTES_PER_POINT);
  }

  @Override
  protected void addHeaders(HttpServletResponse response) {
    InfluxHeaders.add(response);
  }

  @Override
  protected ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException {
    // the body first: asking for a parameter would let the container eat a form-encoded body
    RequestBodies.Body body = RequestBodies.readDecoded(request, maxRequestBytes, bodies);
    try {
      Precision precision;
      try {
        String requested = request.getParameter("precision");
        precision = requested == null || requested.isEmpty() ? Precision.NANOSECONDS : Precision.parse(requested);
      } catch (IllegalArgumentException e) {
        throw new MalformedBodyException(e.getMessage());
      }
      Instant now = Instant.now();
      long nowNanos = precision.toNanos(precision.fromNanos(now.getEpochSecond() * 1_000_000_000L + now.getNano()));
      reserveFor(batch, body.length());
      return new LineProtocolParser(precision, nowNanos, seriesCache).parse(body.bytes(), 0, body.length(), batch);
    } finally {
      bodies.give(body.bytes()); // the parser copies what it keeps: the cached sections, the strings
    }
  }
}
