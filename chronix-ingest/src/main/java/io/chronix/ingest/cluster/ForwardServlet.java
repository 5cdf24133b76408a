package io.chronix.ingest.cluster;

import io.chronix.core.codec.CorruptBlobException;
import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PartialWriteReport;
import io.chronix.ingest.protocol.WriteEndpoint;
import io.chronix.ingest.wal.WalEntries;
import java.io.IOException;
import java.util.List;
import javax.servlet.http.HttpServletRequest;

/**
 * {@code POST /internal/forward}: points another ingest node forwards to this one as their
 * series' owner ({@link BatchForwarder}). They go into this node's own log and buffers, never on
 * to a third node: while the nodes' member lists disagree, the receiver stores what it is sent.
 */
public final class ForwardServlet extends WriteEndpoint {

  public ForwardServlet(BatchWriter local, RequestGate gate, long maxRequestBytes) {
    super(local, gate, maxRequestBytes, PartialWriteReport.OPENTSDB);
  }

  @Override
  protected ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException {
    byte[] body = RequestBodies.readBytes(request, maxRequestBytes);
    if (body.length == 0 || (body[0] != BatchForwarder.FORMAT_VERSION && body[0] != BatchForwarder.FORMAT_VERSION_1)) {
      throw new MalformedBodyException("forwarded batch: format version " + (body.length == 0 ? "missing" : body[0])
          + ", this node reads versions " + BatchForwarder.FORMAT_VERSION_1 + " and " + BatchForwarder.FORMAT_VERSION);
    }
    PointBatch forwarded;
    try {
      forwarded = WalEntries.decode(java.util.Arrays.copyOfRange(body, 1, body.length));
    } catch (CorruptBlobException | IllegalArgumentException e) {
      throw new MalformedBodyException("forwarded batch: " + e.getMessage(), e);
    }
    for (int i = 0; i < forwarded.size(); i++) {
      forwarded.copyTo(i, batch);
    }
    return new ParseResult(forwarded.size(), List.of());
  }
}
