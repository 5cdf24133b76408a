package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.wal.FaultyFiles;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server on a disk that fills up or fails fsync, while ingesting and while checkpointing:
 * a write that cannot be logged is answered 503 and not acknowledged, writes are refused until the
 * log recovers, and after a restart every acknowledged point is there exactly once.
 */
class DiskFaultsTest {

  @TempDir Path dir;

  private ServerConfig config() {
    return ServerConfig.defaults().withEphemeralPorts().with("data.dir", dir.toString()).with("flush.interval", "200ms")
        .with("chunk.maxAge", "300ms");
  }

  private static HttpResponse<String> write(ChronixServer server, int value) throws Exception {
    return TestHttp.post(server.baseUrl() + "/write?precision=s", "disk,host=a value=" + value + " " + (1_000_000 + value),
        false);
  }

  private static TreeSet<Integer> stored(ChronixServer server) throws Exception {
    JsonNode doc = TestHttp.query(server.solrUrl(), "name:disk", "&fl=dataAsJson").at("/response/docs/0");
    TreeSet<Integer> values = new TreeSet<>();
    if (doc.isMissingNode()) {
      return values;
    }
    JsonNode points = TestHttp.JSON.readTree(doc.get("dataAsJson").asText()).get("values");
    List<Integer> all = new ArrayList<>();
    points.forEach(v -> all.add(v.asInt()));
    values.addAll(all);
    assertEquals(all.size(), values.size(), "every point once: " + all);
    return values;
  }

  /** Writes one value after another until one is acknowledged (10 s at most); returns the next value. */
  private static int untilAcknowledged(ChronixServer server, int value, java.util.Collection<Integer> acknowledged,
      java.util.Collection<Integer> refused) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      int code = write(server, value).statusCode();
      (code == 204 ? acknowledged : refused).add(value++);
      if (code == 204) {
        break;
      }
      Thread.sleep(200);
    }
    return value;
  }

  @Test
  void aFullDiskDuringIngestAndCheckpointsLosesNothingAcknowledged() throws Exception {
    FaultyFiles disk = new FaultyFiles();
    TreeSet<Integer> acknowledged = new TreeSet<>();
    TreeSet<Integer> refused = new TreeSet<>();
    try (ChronixServer server = new ChronixServer(config(), disk).start()) {
      for (int i = 0; i < 20; i++) {
        assertEquals(204, write(server, i).statusCode());
        acknowledged.add(i);
      }
      disk.room.set(30); // the disk fills up in the middle of the next entry
      HttpResponse<String> full = write(server, 20);
      assertEquals(503, full.statusCode(), full.body());
      assertTrue(full.body().contains("No space left on device"), full.body());
      assertEquals("5", full.headers().firstValue("Retry-After").orElse(""));
      refused.add(20);
      assertEquals(503, write(server, 21).statusCode(), "refused until the log recovers");
      refused.add(21);
      JsonNode status = TestHttp.JSON.readTree(TestHttp.get(server.baseUrl() + "/status").body());
      assertEquals("failed", status.at("/wal/state").asText(), status.toString());

      disk.room.set(-1); // space again
      int value = untilAcknowledged(server, 22, acknowledged, refused);
      assertTrue(acknowledged.contains(value - 1), "the log recovered");

      // a checkpoint that cannot create its next segment: the log fails again, no point is lost
      disk.failCreate.set(true);
      Thread.sleep(600); // flush rounds roll the log
      for (int i = 0; i < 5; i++) {
        int code = write(server, value).statusCode();
        (code == 204 ? acknowledged : refused).add(value++);
      }
      disk.failCreate.set(false);
      value = untilAcknowledged(server, value, acknowledged, refused);
      assertTrue(acknowledged.contains(value - 1), "recovered again");
      // failing fsync of the directory when old segments go: they stay, nothing is lost
      disk.failFsync.set(true);
      Thread.sleep(600);
      disk.failFsync.set(false);
      Thread.sleep(1200);
      for (int i = 0; i < 3; i++) {
        int code = write(server, value).statusCode();
        (code == 204 ? acknowledged : refused).add(value++);
      }
      assertTrue(!refused.isEmpty() && acknowledged.size() > 22, acknowledged + " / " + refused);
    }
    try (ChronixServer again = new ChronixServer(config()).start()) {
      TreeSet<Integer> after = stored(again);
      assertEquals(acknowledged, after, "every acknowledged point, none of the refused: refused " + refused);
    }
  }
}
