package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.embedded.JettySolrRunner;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.cloud.Replica;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Solr node that leads a shard goes down while points stream in: the ingest node goes on
 * acknowledging (its log and buffers do not need Solr), its flushes fail over to the new leader
 * or wait for it, and once the node is back every acknowledged point is stored exactly once.
 */
class SolrNodeLossTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final int SERIES = 40;

  @Test
  void ingestionGoesOnAndEveryAcknowledgedPointIsStoredOnce(@TempDir Path workDir) throws Exception {
    MiniSolrCloudCluster cluster = new MiniSolrCloudCluster.Builder(3, workDir.resolve("cloud"))
        .withTraceIdGenerationDisabled().build();
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", workDir.resolve("ingest").toString())
        .with("solr.zkHost", cluster.getZkServer().getZkAddress())
        .with("solr.cloud.shards", "2").with("solr.cloud.replicationFactor", "2")
        .with("chunk.maxPoints", "50")).start()) {
      List<Integer> acknowledged = new ArrayList<>();
      JettySolrRunner stopped = null;
      for (int round = 0; round < 30; round++) {
        if (round == 10) {
          // the leader of the first shard goes down mid-stream
          Replica leader = cluster.getSolrClient().getClusterState().getCollection("chronix").getSlices().iterator()
              .next().getLeader();
          for (JettySolrRunner jetty : cluster.getJettySolrRunners()) {
            if (jetty.getNodeName().equals(leader.getNodeName())) {
              stopped = jetty;
            }
          }
          cluster.stopJettySolrRunner(stopped);
        }
        HttpResponse<String> write = TestHttp.post(server.baseUrl() + "/write?precision=ms", lines(round), false);
        assertEquals(204, write.statusCode(), "round " + round + ": " + write.body());
        acknowledged.add(round);
        if (round % 5 == 4) {
          flushUntilStored(server); // full chunks and flushes reach Solr during the outage too
        }
      }
      // a node that stayed up: a restarted Jetty may come back on another port
      String queryUrl = null;
      for (JettySolrRunner jetty : cluster.getJettySolrRunners()) {
        if (jetty != stopped) {
          queryUrl = jetty.getBaseUrl().toString();
        }
      }
      cluster.startJettySolrRunner(stopped);
      cluster.waitForActiveCollection("chronix", 2, 4);
      flushUntilStored(server);
      JsonNode docs = TestHttp.query(queryUrl, "name:loss", "&rows=1000&cj=name,host&fl=host,points")
          .at("/response/docs");
      assertEquals(SERIES, docs.size());
      for (JsonNode doc : docs) {
        int s = Integer.parseInt(doc.get("host").asText().substring(1));
        JsonNode timestamps = doc.at("/points/timestamps");
        assertEquals(acknowledged.size() * 10, timestamps.size(), "host h" + s + ": each point once");
        for (int i = 0; i < timestamps.size(); i++) {
          assertEquals(T0 + i * 1000L, timestamps.get(i).asLong());
          assertEquals(s * 100_000 + i, doc.at("/points/values").get(i).asDouble());
        }
      }
      // exactly once also on the replicas: every record counted by the collection's own statistics
      JsonNode counts = TestHttp.JSON.readTree(TestHttp.get(queryUrl
          + "/chronix/select?q=name:loss&rows=0&stats=true&stats.field=count").body());
      assertEquals((double) SERIES * acknowledged.size() * 10, counts.at("/stats/stats_fields/count/sum").asDouble());
    } finally {
      cluster.shutdown();
    }
  }

  /** Ten points of every series, seconds {@code 10 * round} to {@code 10 * round + 9}. */
  private static String lines(int round) {
    StringBuilder lines = new StringBuilder();
    for (int t = round * 10; t < round * 10 + 10; t++) {
      for (int s = 0; s < SERIES; s++) {
        lines.append("loss,host=h").append(s).append(" value=").append(s * 100_000 + t).append(' ')
            .append(T0 + t * 1000L).append('\n');
      }
    }
    return lines.toString();
  }

  /** /flush answers 500 while a shard has no leader; the points stay buffered and a later flush stores them. */
  private static void flushUntilStored(ChronixServer server) throws Exception {
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (true) {
      HttpResponse<String> flush = TestHttp.post(server.baseUrl() + "/flush", "", false);
      if (flush.statusCode() == 204) {
        return;
      }
      assertTrue(System.nanoTime() < deadline, "flush kept failing: " + flush.body());
      Thread.sleep(500);
    }
  }
}
