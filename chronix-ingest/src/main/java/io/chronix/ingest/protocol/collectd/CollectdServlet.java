package io.chronix.ingest.protocol.collectd;

import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.protocol.BatchWriteServlet;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * The endpoint for collectd's write_http plugin with {@code Format "JSON"} ({@link
 * CollectdJsonParser}). Answers as {@link BatchWriteServlet} does, errors keyed {@code
 * "value_list"}.
 */
public final class CollectdServlet extends BatchWriteServlet {

  private final transient CollectdJsonParser parser;

  /** @param clockNanos the server clock, for value lists without a time */
  public CollectdServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes, LongSupplier clockNanos) {
    super(writer, gate, maxRequestBytes, "value_list");
    this.parser = new CollectdJsonParser(clockNanos);
  }

  @Override
  protected ParseResult parse(String body, PointSink sink) throws IOException, MalformedBodyException {
    return parser.parse(body, sink);
  }
}
