package io.chronix.ingest.protocol.opentsdb;

import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PartialWriteReport;
import io.chronix.ingest.protocol.WriteEndpoint;
import java.io.IOException;
import java.util.function.LongSupplier;
import javax.servlet.http.HttpServletRequest;

/**
 * OpenTSDB's {@code POST /api/put} ({@link OpenTsdbJsonParser}). Answers as {@link
 * WriteEndpoint} does, errors keyed {@code "point"}; OpenTSDB's {@code details}, {@code
 * summary} and {@code sync} parameters are not needed: details are always given, and 204 means
 * stored durably.
 */
public final class OpenTsdbServlet extends WriteEndpoint {

  private final transient OpenTsdbJsonParser parser;

  /** @param clockNanos the server clock, for points without a timestamp */
  public OpenTsdbServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes, LongSupplier clockNanos) {
    super(writer, gate, maxRequestBytes, PartialWriteReport.OPENTSDB);
    this.parser = new OpenTsdbJsonParser(clockNanos);
  }

  @Override
  protected ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException {
    return parser.parse(RequestBodies.readUtf8(request, maxRequestBytes), batch);
  }
}
