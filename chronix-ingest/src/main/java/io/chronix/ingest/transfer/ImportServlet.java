package io.chronix.ingest.transfer;

import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PartialWriteReport;
import io.chronix.ingest.protocol.WriteEndpoint;
import java.io.IOException;
import javax.servlet.http.HttpServletRequest;

/**
 * {@code POST /api/v1/import}: series in VictoriaMetrics' JSON-lines format ({@link
 * JsonLinesReader}), plain or gzip, as VictoriaMetrics' own {@code /api/v1/import} takes them. The
 * answers are those of every write endpoint ({@link WriteEndpoint}); rejected lines are named
 * by number as the line protocol names them.
 */
public final class ImportServlet extends WriteEndpoint {

  private final transient JsonLinesReader reader = new JsonLinesReader();

  public ImportServlet(BatchWriter writer, RequestGate gate, long maxRequestBytes) {
    super(writer, gate, maxRequestBytes, PartialWriteReport.INFLUX);
  }

  @Override
  protected ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException {
    return reader.parse(RequestBodies.readUtf8(request, maxRequestBytes), batch);
  }
}
