package io.chronix.ingest.http;

import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.store.RecordStore;
import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** {@code POST /flush}: writes every buffer as records and commits, so all points are queryable. */
public final class FlushServlet extends HttpServlet {

  private final transient SeriesBuffers buffers;
  private final transient RecordStore store;

  public FlushServlet(SeriesBuffers buffers, RecordStore store) {
    this.buffers = buffers;
    this.store = store;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    try {
      buffers.flushAll();
      buffers.commit(store::commit);
    } catch (IOException e) {
      JsonResponses.error(response, 500, "flush failed, points stay buffered: " + e.getMessage());
      return;
    }
    response.setStatus(204);
  }
}
