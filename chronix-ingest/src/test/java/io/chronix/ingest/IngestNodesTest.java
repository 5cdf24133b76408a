package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.TestInstance;

/**
 * Two ingest nodes on one SolrCloud collection: any node takes any point, each series is buffered
 * and written by its one owner (so one record per series, not one per node), and a node that
 * leaves hands its series to the other.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IngestNodesTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final int SERIES = 120;
  /** Removed by JUnit after the class (and the servers and clusters its @AfterAll closes). */
  @TempDir
  static Path workDir;
  private MiniSolrCloudCluster cluster;
  private String solrUrl;

  @BeforeAll
  void startCluster() throws Exception {
    cluster = new MiniSolrCloudCluster.Builder(1, workDir.resolve("cloud")).withTraceIdGenerationDisabled().build();
    solrUrl = cluster.getJettySolrRunners().get(0).getBaseUrl().toString();
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private ChronixServer node(String name) throws Exception {
    return new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", workDir.resolve(name).toString())
        .with("solr.zkHost", cluster.getZkServer().getZkAddress())
        .with("solr.cloud.shards", "1").with("solr.cloud.replicationFactor", "1")).start();
  }

  @Test
  void eachSeriesIsWrittenByItsOwnerAndALeavingNodesSeriesMove() throws Exception {
    try (ChronixServer a = node("a")) {
      ChronixServer b = node("b");
      try {
        awaitMembers(a, 2);
        awaitMembers(b, 2);
        // every request mixes all series; the two nodes take turns
        for (int round = 0; round < 10; round++) {
          ChronixServer target = round % 2 == 0 ? a : b;
          HttpResponse<String> write = TestHttp.post(target.baseUrl() + "/write?precision=ms", lines(round * 5, 5),
              false);
          assertEquals(204, write.statusCode(), write.body());
        }
        for (ChronixServer node : List.of(a, b)) {
          assertEquals(204, TestHttp.post(node.baseUrl() + "/flush", "", false).statusCode());
        }
        Map<String, Integer> records = recordsPerSeries();
        assertEquals(SERIES, records.size(), records.toString());
        records.forEach((series, count) -> assertEquals(1, count, series + ": one owner, one record"));
        assertAllPoints(50);

        // a forwarded body that is not a batch is refused and stores nothing
        HttpResponse<String> garbage = TestHttp.post(a.baseUrl() + "/internal/forward", "\u0001garbage", false);
        assertEquals(400, garbage.statusCode(), garbage.body());
        assertTrue(garbage.body().contains("forwarded batch"), garbage.body());
        HttpResponse<String> later = TestHttp.post(a.baseUrl() + "/internal/forward", "\u0003anything", false);
        assertEquals(400, later.statusCode(), later.body());
        assertTrue(later.body().contains("format version 3, this node reads versions 1 and 2"), later.body());
      } finally {
        b.close(); // a clean stop: b leaves the member list, a owns everything
      }
      awaitMembers(a, 1);
      HttpResponse<String> write = TestHttp.post(a.baseUrl() + "/write?precision=ms", lines(50, 10), false);
      assertEquals(204, write.statusCode(), write.body());
      assertEquals(204, TestHttp.post(a.baseUrl() + "/flush", "", false).statusCode());
      assertAllPoints(60);
    }
  }

  /**
   * When a node joins, the others write their buffers (some of their series now belong to the
   * newcomer, which starts buffering them): the points show up without any /flush.
   */
  @Test
  void aJoiningNodeMakesTheOthersWriteTheirBuffers() throws Exception {
    try (ChronixServer a = node("handover-a")) {
      awaitMembers(a, 1);
      assertEquals(204, TestHttp.post(a.baseUrl() + "/write?precision=ms", "handover,host=x value=1 " + T0 + "\n",
          false).statusCode());
      assertEquals(0, TestHttp.query(solrUrl, "name:handover", "").at("/response/numFound").asInt(),
          "buffered (chunk.maxAge is minutes)");
      try (ChronixServer b = node("handover-b")) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (TestHttp.query(solrUrl, "name:handover", "").at("/response/numFound").asInt() == 0) {
          assertTrue(System.nanoTime() < deadline, "a's buffers were not written when b joined");
          Thread.sleep(100);
        }
      }
    }
  }

  /**
   * An ingest node passes queries on to the cluster; its buffered points become visible there
   * once written (docs/scaling.md: at the latest after chunk.maxAge, or at /flush).
   */
  @Test
  void queriesThroughAnIngestNodeAnswerAsTheClusterAndSeeWrittenPoints() throws Exception {
    try (ChronixServer a = node("query")) {
      assertEquals(a.baseUrl() + "/solr", a.solrUrl());
      assertEquals(204, TestHttp.post(a.baseUrl() + "/write?precision=ms", "seen,host=q value=1 " + T0 + "\n", false)
          .statusCode());
      JsonNode buffered = TestHttp.query(a.solrUrl(), "name:seen", "&fl=name,points");
      assertEquals(0, buffered.at("/response/numFound").asInt(), "buffered points are not in the cluster yet");
      assertEquals(204, TestHttp.post(a.baseUrl() + "/flush", "", false).statusCode());
      JsonNode written = TestHttp.query(a.solrUrl(), "name:seen", "&fl=name,points");
      assertEquals(1, written.at("/response/numFound").asInt(), written.toString());
      assertEquals(TestHttp.query(solrUrl, "name:seen", "&fl=name,points").at("/response"), written.at("/response"));
      HttpResponse<String> post = TestHttp.post(a.solrUrl() + "/chronix/query", "q=name:seen&fl=name&wt=json", false,
          "application/x-www-form-urlencoded");
      assertEquals(200, post.statusCode(), post.body());
      assertTrue(post.body().contains("\"name\":\"seen\""), post.body());

      HttpResponse<String> bad = TestHttp.get(a.solrUrl() + "/chronix/query?q=name:seen&cf=metric%7Bnope%7D");
      assertEquals(400, bad.statusCode(), bad.body());
      assertTrue(bad.body().contains("nope"), bad.body());
      HttpResponse<String> xml = TestHttp.get(a.solrUrl() + "/chronix/select?q=name:seen&wt=xml");
      assertEquals(200, xml.statusCode());
      assertTrue(xml.headers().firstValue("Content-Type").orElse("").startsWith("application/xml"), xml.headers().toString());
      HttpResponse<String> other = TestHttp.get(a.solrUrl() + "/chronix/terms?terms.fl=name");
      assertTrue(other.statusCode() == 403 || other.statusCode() == 404, other.statusCode() + " " + other.body());
    }
  }

  /** Points {@code from} to {@code from + count - 1} (seconds after T0) of every series. */
  private static String lines(int from, int count) {
    StringBuilder lines = new StringBuilder();
    for (int t = from; t < from + count; t++) {
      for (int s = 0; s < SERIES; s++) {
        lines.append("own_").append(s % 7).append(",host=h").append(s).append(" value=").append(s * 1000 + t)
            .append(' ').append(T0 + t * 1000L).append('\n');
      }
    }
    return lines.toString();
  }

  private Map<String, Integer> recordsPerSeries() throws Exception {
    JsonNode docs = TestHttp.JSON.readTree(TestHttp.get(solrUrl + "/chronix/select?q=name:own_*&rows=10000&fl=name,host")
        .body()).at("/response/docs");
    Map<String, Integer> counts = new HashMap<>();
    for (JsonNode doc : docs) {
      counts.merge(doc.get("name").asText() + "/" + doc.get("host").asText(), 1, Integer::sum);
    }
    return counts;
  }

  /** Every series has points 0 .. n-1 with the values written, each once. */
  private void assertAllPoints(int n) throws Exception {
    JsonNode docs = TestHttp.query(solrUrl, "name:own_*", "&rows=1000&cj=name,host&fl=name,host,points").at("/response/docs");
    assertEquals(SERIES, docs.size());
    for (JsonNode doc : docs) {
      int s = Integer.parseInt(doc.get("host").asText().substring(1));
      JsonNode timestamps = doc.at("/points/timestamps");
      assertEquals(n, timestamps.size(), doc.get("host").asText());
      for (int t = 0; t < n; t++) {
        assertEquals(T0 + t * 1000L, timestamps.get(t).asLong());
        assertEquals(s * 1000 + t, doc.at("/points/values").get(t).asDouble());
      }
    }
  }

  private static void awaitMembers(ChronixServer node, int expected) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (node.ingestNodes().size() != expected) {
      assertTrue(System.nanoTime() < deadline, "ingest nodes seen: " + node.ingestNodes());
      Thread.sleep(50);
    }
  }
}
