package io.chronix.ingest.http;

import io.chronix.ingest.Storage;
import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** {@code POST /flush}: writes every buffer as records and commits, so all points are queryable. */
public final class FlushServlet extends HttpServlet {

  private final transient Storage storage;

  public FlushServlet(Storage storage) {
    this.storage = storage;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    try {
      storage.writeBuffers();
    } catch (IOException e) {
      JsonResponses.error(response, 500, "flush failed, points stay buffered: " + e.getMessage());
      return;
    }
    response.setStatus(204);
  }
}
