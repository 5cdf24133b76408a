package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.config.ServerConfig;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SolrCloud settings that cannot work are refused with what is wrong, and leave nothing running. */
class CloudSettingsTest {

  @TempDir Path dataDir;

  @Test
  void anExternalSolrAndACloudAtOnceAreRefused() {
    ServerConfig both = base().with("solr.url", "http://127.0.0.1:1/solr").with("solr.zkHost", "127.0.0.1:2181");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ChronixServer(both));
    assertTrue(e.getMessage().contains("solr.url (http://127.0.0.1:1/solr) and solr.zkHost (127.0.0.1:2181)"),
        e.getMessage());
  }

  @Test
  void withAuthTheNodesNeedATokenToForwardWith() {
    ServerConfig noToken = base().with("solr.zkHost", "127.0.0.1:2181").with("auth.enabled", "true");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ChronixServer(noToken));
    assertTrue(e.getMessage().contains("set cluster.token"), e.getMessage());
  }

  @Test
  void aRouterThatWouldSplitSeriesIsRefused() {
    ServerConfig implicit = base().with("solr.cloud.router", "implicit");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, implicit::cloudRouter);
    assertTrue(e.getMessage().contains("keeps the records of a series on one shard"), e.getMessage());
  }

  @Test
  void anUnreachableZooKeeperFailsTheStartNamingItAndFreesThePort() throws Exception {
    int closedPort = freePort();
    int httpPort = freePort();
    ServerConfig config = base().with("http.port", Integer.toString(httpPort))
        .with("solr.zkHost", "127.0.0.1:" + closedPort + "/solr").with("solr.cloud.waitTimeout", "2s");
    ChronixServer server = new ChronixServer(config);
    long start = System.nanoTime();
    IllegalStateException e = assertThrows(IllegalStateException.class, server::start);
    assertTrue(e.getMessage().contains("ZooKeeper at 127.0.0.1:" + closedPort + "/solr within PT2S"), e.getMessage());
    assertTrue(System.nanoTime() - start < 12_000_000_000L, "gave up after about solr.cloud.waitTimeout");
    // started and stopped again: the server's port is free for the next start
    try (ServerSocket again = new ServerSocket(httpPort, 1, java.net.InetAddress.getLoopbackAddress())) {
      assertTrue(again.isBound());
    }
  }

  private static int freePort() throws java.io.IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private ServerConfig base() {
    return ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString());
  }
}
