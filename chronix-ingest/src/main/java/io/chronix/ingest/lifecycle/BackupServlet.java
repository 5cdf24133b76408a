package io.chronix.ingest.lifecycle;

import io.chronix.ingest.Storage;
import io.chronix.ingest.http.JsonResponses;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code POST /admin/backup?dir=<dir>} and {@code POST /admin/restore?dir=<dir>} (admin role; the
 * directory on the server's machine): every buffered point is written and committed first, so a
 * backup holds every point acknowledged before it started, and a restore replaces all of it.
 * Answers when done: 200 with the snapshot's directory and the time taken.
 */
public final class BackupServlet extends HttpServlet {

  private final transient Storage storage;
  private final transient Backups backups;
  private final boolean restore;

  public BackupServlet(Storage storage, Backups backups, boolean restore) {
    this.storage = storage;
    this.backups = backups;
    this.restore = restore;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String dir = request.getParameter("dir");
    String what = restore ? "restore" : "backup";
    if (dir == null || dir.isBlank() || !Path.of(dir).isAbsolute()) {
      JsonResponses.error(response, 400, what + " needs dir=<absolute directory on the server's machine>");
      return;
    }
    long started = System.nanoTime();
    try {
      storage.writeBuffers();
      if (restore) {
        backups.restore(Path.of(dir));
      } else {
        backups.backup(Path.of(dir));
      }
    } catch (IllegalArgumentException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return;
    } catch (IOException e) {
      JsonResponses.error(response, 500, what + " failed: " + e.getMessage());
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "success");
    body.put(what, Backups.snapshot(Path.of(dir).toAbsolutePath().normalize()).toString());
    body.put("seconds", (System.nanoTime() - started) / 1e9);
    JsonResponses.send(response, 200, body);
  }
}
