package io.chronix.ingest.http;

import io.chronix.ingest.compaction.Compactor;
import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** {@code POST /compact}: merges small records now, instead of waiting for compaction.interval. */
public final class CompactServlet extends HttpServlet {

  private final transient Compactor compactor;

  public CompactServlet(Compactor compactor) {
    this.compactor = compactor;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    Compactor.Result result;
    try {
      result = compactor.compact();
    } catch (IOException e) {
      JsonResponses.error(response, 500, "compaction failed: " + e.getMessage());
      return;
    }
    JsonResponses.send(response, 200, Map.of("series", result.series(), "recordsRead", result.recordsRead(),
        "recordsWritten", result.recordsWritten()));
  }
}
