package io.chronix.ingest.http;

import io.chronix.ingest.Storage;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /status}: what an operator watches (admin role): whether the write-ahead log takes
 * writes and why not, what the last replay could not read, and how much is buffered.
 */
public final class StatusServlet extends HttpServlet {

  private final transient Storage storage;

  public StatusServlet(Storage storage) {
    this.storage = storage;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    WriteAheadLog.ReplayReport replay = storage.wal().replayReport();
    Map<String, Object> replayed = new LinkedHashMap<>();
    replayed.put("segments", replay.segments());
    replayed.put("entries", replay.entries());
    replayed.put("points", replay.points());
    replayed.put("damagedEntries", replay.damagedEntries());
    replayed.put("skippedPoints", replay.skippedPoints());
    replayed.put("skippedBytes", replay.skippedBytes());
    replayed.put("tornTailBytes", replay.tornBytes());
    Map<String, Object> wal = new LinkedHashMap<>();
    String failure = storage.wal().failure();
    wal.put("state", failure == null ? "ok" : "failed");
    if (failure != null) {
      wal.put("failure", failure);
    }
    wal.put("segments", storage.wal().segments().size());
    wal.put("replay", replayed);
    Map<String, Object> buffers = new LinkedHashMap<>();
    buffers.put("points", storage.buffers().bufferedPoints());
    buffers.put("activeSeries", storage.buffers().activeSeries());
    buffers.put("memoryBytes", storage.buffers().memoryBytes());
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("wal", wal);
    status.put("buffers", buffers);
    JsonResponses.send(response, 200, status);
  }
}
