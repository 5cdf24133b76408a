package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ingest node killed with SIGKILL while points stream in through both nodes: once ZooKeeper
 * ends its session, its series move to the other node (requests for them are answered 503 until
 * then, and resent); restarted, it replays its log. Every acknowledged point is stored once.
 */
class IngestNodeKillTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final int SERIES = 30;
  private static final HttpClient HTTP = TestHttp.CLIENT;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aKilledNodesSeriesMoveAndItsLogReplaysOnRestart(@TempDir Path workDir) throws Exception {
    MiniSolrCloudCluster cluster = new MiniSolrCloudCluster.Builder(1, workDir.resolve("cloud"))
        .withTraceIdGenerationDisabled().build();
    String zk = cluster.getZkServer().getZkAddress();
    String[] cloud = {"solr.zkHost=" + zk, "solr.cloud.shards=1", "solr.cloud.replicationFactor=1",
        "solr.cloud.zkSessionTimeout=4s"};
    try (ChronixServer a = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", workDir.resolve("a").toString()).with("solr.zkHost", zk).with("solr.cloud.shards", "1")
        .with("solr.cloud.replicationFactor", "1").with("solr.cloud.zkSessionTimeout", "4s")).start()) {
      ServerProcess b = ServerProcess.start(workDir.resolve("b"), cloud);
      try {
        awaitMembers(a, 2);
        int rounds = 0;
        for (; rounds < 10; rounds++) { // the nodes take turns; each forwards the other's series
          assertEquals(204, write(rounds % 2 == 0 ? a.baseUrl() : b.baseUrl(), rounds));
        }
        b.kill();
        for (; rounds < 20; rounds++) { // 503 while b's registration lives on, then a owns everything
          long deadline = System.nanoTime() + 60_000_000_000L;
          int status;
          while ((status = write(a.baseUrl(), rounds)) != 204) {
            assertEquals(503, status);
            assertTrue(System.nanoTime() < deadline, "a never took over b's series");
            Thread.sleep(200);
          }
        }
        awaitMembers(a, 1);
      } finally {
        b.close();
      }
      try (ServerProcess restarted = ServerProcess.start(workDir.resolve("b"), cloud)) {
        awaitMembers(a, 2);
        for (String node : new String[] {a.baseUrl(), restarted.baseUrl()}) {
          assertEquals(204, post(node + "/flush", "").statusCode());
        }
        String solrUrl = cluster.getJettySolrRunners().get(0).getBaseUrl().toString();
        JsonNode docs = JSON.readTree(get(solrUrl + "/chronix/query?wt=json&q=name:kill&rows=1000"
            + "&cj=name,host&fl=host,points")).at("/response/docs");
        assertEquals(SERIES, docs.size(), docs.toString());
        for (JsonNode doc : docs) {
          int s = Integer.parseInt(doc.get("host").asText().substring(1));
          JsonNode timestamps = doc.at("/points/timestamps");
          assertEquals(200, timestamps.size(), "host h" + s + ": every acknowledged point, once");
          for (int i = 0; i < 200; i++) {
            assertEquals(T0 + i * 1000L, timestamps.get(i).asLong());
            assertEquals(s * 100_000 + i, doc.at("/points/values").get(i).asDouble());
          }
        }
        JsonNode counts = JSON.readTree(get(solrUrl + "/chronix/select?q=name:kill&rows=0&stats=true"
            + "&stats.field=count"));
        assertEquals(SERIES * 200.0, counts.at("/stats/stats_fields/count/sum").asDouble(), "no point stored twice");
      }
    } finally {
      cluster.shutdown();
    }
  }

  /** Ten points of every series, seconds 10 * round to 10 * round + 9; the answer's status. */
  private static int write(String node, int round) throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int t = round * 10; t < round * 10 + 10; t++) {
      for (int s = 0; s < SERIES; s++) {
        lines.append("kill,host=h").append(s).append(" value=").append(s * 100_000 + t).append(' ')
            .append(T0 + t * 1000L).append('\n');
      }
    }
    return post(node + "/write?precision=ms", lines.toString()).statusCode();
  }

  private static HttpResponse<String> post(String url, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String get(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  private static void awaitMembers(ChronixServer node, int expected) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (node.ingestNodes().size() != expected) {
      assertTrue(System.nanoTime() < deadline, "ingest nodes seen: " + node.ingestNodes());
      Thread.sleep(50);
    }
  }
}
