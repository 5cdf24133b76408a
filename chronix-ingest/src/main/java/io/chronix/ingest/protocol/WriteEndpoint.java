package io.chronix.ingest.protocol;

import io.chronix.ingest.http.BatchStorage;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.BatchPool;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Every HTTP write endpoint: read and parse the whole body into one batch, store it at once (so
 * that it is logged and acknowledged as a unit), then answer. The protocols differ in how they
 * read and parse and in the words of their answers ({@link PartialWriteReport}):
 *
 * <ul>
 *   <li>204: every item of the body was stored;
 *   <li>400: the body is unreadable (nothing stored), or some items were rejected: the valid ones
 *       are stored and the answer names each rejected one;
 *   <li>413 / 415: body too large or in an unknown format; 429: too many series (nothing stored);
 *   <li>503 with Retry-After: overloaded, out of memory for bodies, the log failed, or shutting
 *       down: nothing stored, the client resends;
 *   <li>500: storing failed for another reason (the server's fault, not the body's).
 * </ul>
 */
public abstract class WriteEndpoint extends HttpServlet {

  private final transient BatchWriter writer;
  private final transient RequestGate gate;
  private final long maxRequestBytes;
  private final PartialWriteReport report;

  protected WriteEndpoint(BatchWriter writer, RequestGate gate, long maxRequestBytes, PartialWriteReport report) {
    this.writer = writer;
    this.gate = gate;
    this.maxRequestBytes = maxRequestBytes;
    this.report = report;
  }

  /**
   * Reads the body (never more than {@code maxRequestBytes}) and delivers the valid items' points
   * to the batch; each error's number is the 1-based position of its item.
   *
   * @throws MalformedBodyException when nothing of the body can be used
   */
  protected abstract ParseResult parse(HttpServletRequest request, long maxRequestBytes, PointBatch batch)
      throws IOException, MalformedBodyException;

  /** Shared by every endpoint: a few batches for any protocol's requests. */
  private static final BatchPool BATCHES = new BatchPool();

  /** Headers every answer carries (InfluxDB's version headers). */
  protected void addHeaders(HttpServletResponse response) {}

  @Override
  protected final void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    addHeaders(response);
    PointBatch batch = BATCHES.forBody(request.getContentLengthLong());
    try {
      store(request, response, batch);
    } finally {
      BATCHES.give(batch); // the stages copy what they keep: nothing refers to the batch now
    }
  }

  private void store(HttpServletRequest request, HttpServletResponse response, PointBatch batch) throws IOException {
    ParseResult result;
    try {
      result = parse(request, maxRequestBytes, batch);
    } catch (MalformedBodyException e) {
      if (e.status() == 503) {
        response.setHeader("Retry-After", "1");
      }
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
    report.send(response, result);
  }
}
