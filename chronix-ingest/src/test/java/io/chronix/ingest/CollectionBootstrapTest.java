package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.commons.io.file.PathUtils;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.TestInstance;

/**
 * How ingest nodes find or make their collection: a configset the operator uploaded is used as it
 * is, nodes starting at once on a fresh cluster all start (one creates, the others find), and a
 * query through an ingest node while no Solr node answers is a 503 with Retry-After.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CollectionBootstrapTest {

  private static final long T0 = 1_700_000_000_000L;
  /** Removed by JUnit after the class (and the servers and clusters its @AfterAll closes). */
  @TempDir
  static Path workDir;
  private MiniSolrCloudCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    cluster = new MiniSolrCloudCluster.Builder(1, workDir.resolve("cloud")).withTraceIdGenerationDisabled().build();
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private ChronixServer node(String collection, String dir) throws Exception {
    return new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", workDir.resolve(dir).toString())
        .with("solr.collection", collection)
        .with("solr.zkHost", cluster.getZkServer().getZkAddress())
        .with("solr.cloud.shards", "1").with("solr.cloud.replicationFactor", "1")).start();
  }

  @Test
  void nodesStartingAtOnceOnAFreshClusterAllStart() throws Exception {
    ExecutorService starts = Executors.newFixedThreadPool(3);
    List<Future<ChronixServer>> nodes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String dir = "race" + i;
      nodes.add(starts.submit(() -> node("race", dir)));
    }
    List<ChronixServer> started = new ArrayList<>();
    try {
      for (Future<ChronixServer> node : nodes) {
        started.add(node.get()); // throws what a losing node's start threw
      }
      for (ChronixServer node : started) {
        assertEquals(200, TestHttp.get(node.solrUrl() + "/race/select?q=*:*&rows=0").statusCode());
      }
    } finally {
      for (ChronixServer node : started) {
        node.close();
      }
      starts.shutdown();
    }
  }

  @Test
  void aConfigSetTheOperatorUploadedIsUsedAsItIs() throws Exception {
    Path own = workDir.resolve("own-configset");
    PathUtils.copyDirectory(Path.of("..", "conf", "solr", "configsets", "chronix", "conf"), own);
    Files.writeString(own.resolve("operator-notes.txt"), "tuned by ops");
    cluster.uploadConfigSet(own, "kept");
    try (ChronixServer node = node("kept", "kept")) {
      assertTrue(cluster.getZkClient().exists("/configs/kept/operator-notes.txt", true),
          "the operator's configset was not replaced");
      write(node, "kept");
      JsonNode functions = TestHttp.query(node.solrUrl(), "kept", "name:kept",
          "&cf=metric%7Bmax%7D").at("/response/docs/0/functions/0/value");
      assertEquals(2.0, functions.asDouble());
    }
  }

  /** Stops the cluster's only Solr node and starts it again. */
  @Test
  void aQueryWhileNoSolrNodeAnswersIs503WithRetryAfter() throws Exception {
    try (ChronixServer node = node("outage", "outage")) {
      write(node, "outage");
      JettySolrRunner solr = cluster.getJettySolrRunner(0);
      cluster.stopJettySolrRunner(solr);
      cluster.waitForJettyToStop(solr);
      try {
        HttpResponse<String> down = TestHttp.get(node.solrUrl() + "/outage/query?q=name:outage");
        assertEquals(503, down.statusCode(), down.body());
        assertEquals("1", down.headers().firstValue("Retry-After").orElse(""));
        assertTrue(down.body().contains("no Solr node of collection outage answered"), down.body());
      } finally {
        cluster.startJettySolrRunner(solr);
        cluster.waitForActiveCollection("outage", 1, 1);
      }
      JsonNode back = TestHttp.query(node.solrUrl(), "outage", "name:outage", "&fl=points").at("/response/docs/0/points");
      assertEquals(2, back.at("/timestamps").size(), back.toString());
    }
  }

  private static void write(ChronixServer node, String name) throws Exception {
    HttpResponse<String> write = TestHttp.post(node.baseUrl() + "/write?precision=ms",
        name + ",host=a value=1 " + T0 + "\n" + name + ",host=a value=2 " + (T0 + 1000) + "\n", false);
    assertEquals(204, write.statusCode(), write.body());
    assertEquals(204, TestHttp.post(node.baseUrl() + "/flush", "", false).statusCode());
  }
}
