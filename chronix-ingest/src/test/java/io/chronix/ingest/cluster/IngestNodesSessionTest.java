package io.chronix.ingest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.apache.solr.cloud.ZkTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ingest node whose ZooKeeper session expires loses its ephemeral entry, so the others stop
 * routing to it; it must register again in its new session without a restart.
 */
class IngestNodesSessionTest {

  @Test
  void aNodeRegistersAgainAfterItsSessionExpired(@TempDir Path workDir) throws Exception {
    ZkTestServer zkServer = new ZkTestServer(workDir.resolve("zk"));
    zkServer.run(false);
    String zk = zkServer.getZkHost();
    List<List<String>> seenByA = new CopyOnWriteArrayList<>();
    try (IngestNodes a = IngestNodes.join(zk, Duration.ofSeconds(10), "c", "http://a:1", seenByA::add);
        IngestNodes b = IngestNodes.join(zk, Duration.ofSeconds(10), "c", "http://b:2", members -> { })) {
      awaitTrue(() -> a.members().size() == 2, () -> "a sees b: " + a.members());

      zkServer.expire(b.sessionId());
      // a sees b leave (its entry went with the session), then come back in a new session
      awaitTrue(() -> seenByA.contains(List.of("http://a:1")), () -> "a saw b leave: " + seenByA);
      awaitTrue(() -> a.members().equals(List.of("http://a:1", "http://b:2")), () -> "b is back: " + a.members());
      awaitTrue(() -> b.reRegistrations() == 1, () -> "b registered again once: " + b.reRegistrations());
      assertEquals(List.of("http://a:1", "http://b:2"), b.members(), "b still watches the others");

      // and b's new watch works: a third node is seen by b
      try (IngestNodes c = IngestNodes.join(zk, Duration.ofSeconds(10), "c", "http://c:3", members -> { })) {
        awaitTrue(() -> b.members().size() == 3, () -> "b sees c: " + b.members());
      }
      awaitTrue(() -> b.members().size() == 2, () -> "b sees c leave: " + b.members());
    } finally {
      zkServer.shutdown();
    }
  }

  private static void awaitTrue(BooleanSupplier condition, java.util.function.Supplier<String> what)
      throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, what.get());
      Thread.sleep(20);
    }
  }
}
