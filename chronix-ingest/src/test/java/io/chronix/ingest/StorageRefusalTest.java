package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.wal.SegmentFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storage whose settings are refused starts nothing: no flusher left behind to retry on a
 * directory nobody uses (the start's warm-up opens storages of its own and goes on after a failure).
 */
class StorageRefusalTest {

  @TempDir Path dataDir;

  @Test
  void refusedSettingsLeaveNoThreadBehind() throws Exception {
    ServerConfig refused = ServerConfig.defaults().with("data.dir", dataDir.toString())
        .with("rollup.retention", "1h=20d"); // names a tier that rollup.tiers does not have
    long flushersBefore = flushers();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Storage.open(refused, null, false, SegmentFiles.DISK));
    assertTrue(e.getMessage().contains("rollup.retention"), e.getMessage());
    assertEquals(flushersBefore, flushers(), "no flusher started for a refused storage");
  }

  private static long flushers() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals("chronix-flusher")).count();
  }
}
