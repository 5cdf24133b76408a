package io.chronix.ingest.lifecycle;

import io.chronix.analysis.promql.engine.PointChanges;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;

/**
 * Backup and restore of the embedded node's core through Solr's replication handler: a backup
 * copies the files of the latest commit point (a consistent snapshot, taken after the server
 * wrote and committed its buffers) to {@code <dir>/snapshot.chronix}; a restore replaces the
 * core's index with such a snapshot. Both wait until Solr reports them done.
 */
public final class Backups {

  /** The snapshot's name: a backup directory holds one backup. */
  static final String NAME = "chronix";
  private static final long TIMEOUT_MS = TimeUnit.HOURS.toMillis(6);

  private final SolrClient solr;
  private final String collection;
  private PointChanges changes = PointChanges.NONE;

  public Backups(SolrClient solr, String collection) {
    this.solr = solr;
    this.collection = collection;
  }

  /** Where a backup in this directory keeps its files. */
  public static Path snapshot(Path dir) {
    return dir.resolve("snapshot." + NAME);
  }

  /** @throws IllegalArgumentException when the directory already holds a backup */
  public void backup(Path dir) throws IOException {
    Path target = dir.toAbsolutePath().normalize();
    if (Files.exists(snapshot(target))) {
      throw new IllegalArgumentException(target + " already holds a backup (" + snapshot(target).getFileName()
          + "): name an empty or new directory");
    }
    Files.createDirectories(target);
    long started = System.currentTimeMillis();
    replication("command", "backup", "location", target.toString(), "name", NAME);
    awaitStatus("backup", () -> {
      NamedList<?> details = (NamedList<?>) replication("command", "details").get("details");
      NamedList<?> backup = details == null ? null : (NamedList<?>) details.get("backup");
      if (backup == null || !(NAME.equals(backup.get("snapshotName")))) {
        return null;
      }
      Object status = backup.get("status");
      return "success".equals(status) ? "done" : status instanceof String text && text.startsWith("fail")
          ? "failed: " + backup.get("exception") : null;
    });
    if (!Files.isDirectory(snapshot(target))) {
      throw new IOException("Solr reported the backup done, but " + snapshot(target) + " is missing (started "
          + started + ")");
    }
  }

  /** Tells {@code changes} of every restore: all points may differ after it. */
  public Backups reportingTo(PointChanges changes) {
    this.changes = changes;
    return this;
  }

  /** @throws IllegalArgumentException when the directory holds no backup */
  public void restore(Path dir) throws IOException {
    Path source = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(snapshot(source))) {
      throw new IllegalArgumentException(source + " holds no backup (" + snapshot(source).getFileName()
          + " is missing)");
    }
    try {
      replication("command", "restore", "location", source.toString(), "name", NAME);
      awaitStatus("restore", () -> {
        NamedList<?> status = (NamedList<?>) replication("command", "restorestatus").get("restorestatus");
        Object state = status == null ? null : status.get("status");
        return "success".equals(state) ? "done" : state instanceof String text && text.startsWith("fail")
            ? "failed: " + status.get("exception") : null;
      });
    } finally {
      changes.changedAll(); // also after a restore that failed half-way
    }
  }

  private interface Status {
    /** "done", "failed: ...", or null while running. */
    String poll() throws IOException;
  }

  private static void awaitStatus(String what, Status status) throws IOException {
    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    while (System.currentTimeMillis() < deadline) {
      String state = status.poll();
      if ("done".equals(state)) {
        return;
      }
      if (state != null) {
        throw new IOException(what + " " + state);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(what + " interrupted", e);
      }
    }
    throw new IOException(what + " did not finish within " + TIMEOUT_MS / 60_000 + " minutes");
  }

  private NamedList<Object> replication(String... pairs) throws IOException {
    ModifiableSolrParams params = new ModifiableSolrParams();
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      params.set(pairs[i], pairs[i + 1]);
    }
    GenericSolrRequest request = new GenericSolrRequest(SolrRequest.METHOD.GET, "/replication", params);
    request.setRequiresCollection(true);
    try {
      return solr.request(request, collection);
    } catch (SolrServerException | RuntimeException e) {
      throw new IOException("Solr's replication handler failed: " + e.getMessage(), e);
    }
  }
}
