package io.chronix.ingest.protocol.collectd;

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
 * The endpoint for collectd's write_http plugin with {@code Format "JSON"} ({@link
 * CollectdJsonParser}). Answers as {@link WriteEndpoint} does, errors keyed {@code
 * "value_list"}.
 */
public final class CollectdServlet extends WriteEndpoint {

  private final transient CollectdJsonParser parser;

  /** @param clockNanos the server clock, for value lists without a time */
  public CollectdServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes, LongSupplier clockNanos) {
    super(writer, gate, maxRequestBytes, PartialWriteReport.COLLECTD);
    this.parser = new CollectdJsonParser(clockNanos);
  }

  @Override
  protected ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException {
    return parser.parse(RequestBodies.readUtf8(request, maxRequestBytes), batch);
  }
}
