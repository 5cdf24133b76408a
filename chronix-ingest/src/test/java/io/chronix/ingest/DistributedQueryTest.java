package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same data in a single core and in a 2-shard SolrCloud collection: every query form and
 * every function must answer identically.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedQueryTest {

  private static final long T0 = 1_439_393_134_000L; // ms
  /** Removed by JUnit after the class (and the servers and clusters its @AfterAll closes). */
  @TempDir
  static Path workDir;
  private MiniSolrCloudCluster cluster;
  private ChronixServer single;
  private ChronixServer cloudFront;
  private ChronixServer cloudSecond;
  private String cloudSolrUrl;

  @BeforeAll
  void startBoth() throws Exception {
    // no configset and no collection: the ZooKeeper-aware server uploads and creates them
    cluster = new MiniSolrCloudCluster.Builder(3, workDir.resolve("cloud"))
        .withTraceIdGenerationDisabled()
        .build();
    cloudSolrUrl = cluster.getJettySolrRunners().get(0).getBaseUrl().toString();

    ServerConfig base = ServerConfig.defaults().withEphemeralPorts().with("chunk.maxPoints", "500");
    single = new ChronixServer(base.with("data.dir", workDir.resolve("single").toString())).start();
    cloudFront = new ChronixServer(cloudConfig(base, "front")).start();
    // a second ingest node finds the collection; each node forwards what the other owns
    cloudSecond = new ChronixServer(cloudConfig(base, "second")).start();
    while (cloudFront.ingestNodes().size() != 2 || cloudSecond.ingestNodes().size() != 2) {
      Thread.sleep(50);
    }
    load(single, single);
    load(cloudFront, cloudSecond); // the known stream through both ingest nodes
    for (ChronixServer node : List.of(single, cloudFront, cloudSecond)) {
      assertEquals(204, TestHttp.post(node.baseUrl() + "/flush", "", false).statusCode());
    }
  }

  private ServerConfig cloudConfig(ServerConfig base, String dir) {
    return base.with("data.dir", workDir.resolve(dir).toString())
        .with("solr.zkHost", cluster.getZkServer().getZkAddress())
        .with("solr.cloud.shards", "2").with("solr.cloud.replicationFactor", "2");
  }

  /** P4 files through one server, the synthetic stream through another (or the same). */
  private static void load(ChronixServer server, ChronixServer synthetic) throws Exception {
    List<Path> files;
    Path dir = Path.of(System.getProperty("chronix.p4.dir", "../shared/data/p4"));
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(f -> f.toString().contains("Usage-used") || f.toString().contains("\\Load\\"))
          .sorted().toList();
    }
    assertTrue(files.size() >= 4, "P4 files to load");
    // one file at a time: the order of writes decides which chunk wins a shared timestamp
    CsvImporter.Summary summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
        new PrintStream(new ByteArrayOutputStream()), false).importFiles(files, 1);
    assertEquals(List.of(), summary.failures());
    HttpResponse<String> write = TestHttp.post(synthetic.baseUrl() + "/write?precision=ms", synthetic(), true);
    assertEquals(204, write.statusCode(), write.body());
  }

  /** Series with a known shape and distinct timestamps per host. */
  static String synthetic() {
    Random random = new Random(11);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 600; i++) {
      long t = T0 + i * 1000L;
      lines.append("synth_trend,host=a value=").append(i * 0.5 + random.nextGaussian()).append(' ').append(t).append('\n');
      lines.append("synth_flat,host=b value=").append(i == 300 ? 90 : 10 + random.nextInt(3)).append(' ').append(t + 1).append('\n');
      double season = 10 * Math.sin(2 * Math.PI * i / 24) + (i == 400 ? 60 : 0) + random.nextGaussian() * 0.1;
      lines.append("synth_season,host=c value=").append(season).append(' ').append(t + 2).append('\n');
      for (int h = 1; h <= 4; h++) {
        lines.append("synth_multi,host=h").append(h).append(",rack=r").append(h % 2)
            .append(" value=").append(h * 100 + (i % 7)).append(' ').append(t + 2 + h).append('\n');
      }
      if (i % 3 == 0) {
        lines.append("synth_sparse,dc=x value=").append(i % 5).append(' ').append(t + 10).append('\n');
      }
    }
    return lines.toString();
  }

  @AfterAll
  void stopAll() throws Exception {
    if (cloudSecond != null) {
      cloudSecond.close();
    }
    if (cloudFront != null) {
      cloudFront.close();
    }
    if (single != null) {
      single.close();
    }
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void theServerCreatedTheCollectionFromItsConfigSetAndAnotherOneUsesIt() throws Exception {
    var client = cluster.getSolrClient();
    assertTrue(new org.apache.solr.client.solrj.request.ConfigSetAdminRequest.List().process(client).getConfigSets()
        .contains("chronix"));
    var state = client.getClusterState().getCollection("chronix");
    assertEquals("chronix", state.getConfigName());
    assertEquals("compositeId", state.getRouter().getName());
    assertEquals(2, state.getActiveSlices().size());
    for (Slice slice : state.getActiveSlices()) {
      assertEquals(2, slice.getReplicas().size(), slice.getName());
    }
    // the second ingest node found the collection and wrote into it; the PromQL API reads through ZooKeeper
    assertEquals(2, cloudFront.ingestNodes().size());
    String promql = cloudSecond.baseUrl() + "/api/v1/query?query=" + enc("synth_trend{host=\"a\"}") + "&time="
        + (T0 / 1000 + 300);
    JsonNode fromCloud = TestHttp.JSON.readTree(TestHttp.get(promql).body());
    JsonNode fromSingle = TestHttp.JSON.readTree(TestHttp.get(promql.replace(cloudSecond.baseUrl(), single.baseUrl()))
        .body());
    assertEquals("success", fromCloud.get("status").asText(), fromCloud.toString());
    assertEquals(1, fromCloud.at("/data/result").size(), fromCloud.toString());
    assertEquals(fromSingle.at("/data/result"), fromCloud.at("/data/result"));
    assertEquals(1, CollectionAdminRequest.listCollections(client).size());
  }

  /**
   * The plugin's answers from one core's columns (label names and values, the series listing) are
   * refused on a sharded collection; the PromQL API lists the series there and answers as one core.
   */
  @Test
  void oneCoreColumnAnswersAreRefusedOnShardsAndTheListingsAnswerAsOneCore() throws Exception {
    for (String parameter : List.of("chronix.fieldValues=host", "chronix.fieldNames=true", "chronix.seriesFields=true")) {
      HttpResponse<String> refused = TestHttp.get(cloudSolrUrl + "/chronix/query?wt=json&q=*:*&" + parameter);
      assertEquals(400, refused.statusCode(), parameter + ": " + refused.body());
      assertTrue(refused.body().contains("are answered by one core"), refused.body());
    }
    for (String path : List.of("/api/v1/labels", "/api/v1/label/host/values", "/api/v1/label/__name__/values",
        "/api/v1/series?match[]=" + enc("{__name__=~\"synth_.*\"}"))) {
      JsonNode fromCloud = TestHttp.JSON.readTree(TestHttp.get(cloudSecond.baseUrl() + path).body());
      JsonNode fromSingle = TestHttp.JSON.readTree(TestHttp.get(single.baseUrl() + path).body());
      assertEquals("success", fromCloud.get("status").asText(), path + ": " + fromCloud);
      assertTrue(fromSingle.get("data").size() > 0, path + ": " + fromSingle);
      assertEquals(fromSingle.get("data"), fromCloud.get("data"), path);
    }
  }

  /** The cj=process queries above join series of one process stored on both shards. */
  @Test
  void someJoinGroupsHaveTheirRecordsOnBothShards() throws Exception {
    var state = cluster.getSolrClient().getClusterState().getCollection("chronix");
    java.util.Map<String, java.util.Set<String>> shardsOfProcess = new java.util.HashMap<>();
    for (Slice slice : state.getSlices()) {
      Replica replica = slice.getLeader();
      try (Http2SolrClient client = new Http2SolrClient.Builder(replica.getBaseUrl()).build()) {
        var response = client.query(replica.getCoreName(), new SolrQuery("name:*Usage*").setRows(10000)
            .setFields("process").setParam("distrib", "false"));
        response.getResults().forEach(d -> shardsOfProcess.computeIfAbsent((String) d.getFieldValue("process"),
            k -> new java.util.HashSet<>()).add(slice.getName()));
      }
    }
    assertTrue(shardsOfProcess.values().stream().anyMatch(shards -> shards.size() == 2), shardsOfProcess.toString());
  }

  @Test
  void recordsAreSpreadOverBothShardsAndRoutedByNameAndType() throws Exception {
    var state = cluster.getSolrClient().getClusterState().getCollection("chronix");
    java.util.Set<String> namesSeen = new java.util.HashSet<>();
    for (Slice slice : state.getSlices()) {
      Replica replica = slice.getLeader();
      try (Http2SolrClient client = new Http2SolrClient.Builder(replica.getBaseUrl()).build()) {
        var response = client.query(replica.getCoreName(), new SolrQuery("*:*").setRows(10000).setFields("name")
            .setParam("distrib", "false"));
        assertTrue(response.getResults().getNumFound() > 0, "shard " + slice.getName() + " holds records");
        java.util.Set<String> names = new java.util.HashSet<>();
        response.getResults().forEach(d -> names.add((String) d.getFieldValue("name")));
        for (String name : names) {
          assertTrue(namesSeen.add(name), "name " + name + " lives on one shard only");
        }
      }
    }
  }

  static Stream<String> queries() {
    String all = "q=" + enc("name:synth_*") + "&fl=dataAsJson";
    String p4 = "q=" + enc("name:*Usage* AND start:" + (T0 + 7_200_000) + " AND end:" + (T0 + 4 * 3_600_000));
    return Stream.of(
        all,
        all + "&cj=name,type,host",
        all + "&cj=host",
        all + "&cj=rack",
        "q=" + enc("name:synth_*") + "&rows=0",
        "q=" + enc("name:synth_*") + "&start=1&rows=2&fl=name,host,count",
        "q=" + enc("name:synth_multi") + "&fl=%2Bdata",
        "q=" + enc("name:synth_multi") + "&fl=-data",
        p4 + "&fl=dataAsJson",
        p4 + "&fl=points",
        all.replace("dataAsJson", "points") + "&cj=host",
        p4 + "&cf=" + enc("metric{max;min;avg;p:0.5;p:0.99;trend;outlier}"),
        // join groups of several names, which the router puts on different shards
        p4 + "&cj=process&fl=points",
        p4 + "&cj=process&cf=" + enc("metric{max;count;avg;trend;outlier}"),
        "q=" + enc("name:synth_* AND start:" + (T0 + 100_000) + " AND end:" + (T0 + 200_000)) + "&fl=dataAsJson",
        "q=" + enc("name:synth_*") + "&cf=" + enc("metric{min;max;avg;dev;sum;count;first;last;range;diff;sdiff;p:0.25;p:0.99;integral}"),
        "q=" + enc("name:synth_*") + "&cj=host&cf=" + enc("metric{max;p:0.9;trend}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{vector:0.5}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{scale:4;divide:2;add:-3;sub:1.5}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{top:5}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{bottom:5}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{movavg:10,seconds;max}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{smovavg:5}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{derivative}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{nnderivative}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{timeshift:-10,days}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{distinct}"),
        "q=" + enc("name:synth_*") + "&fl=dataAsJson&cf=" + enc("metric{downsample:1,minutes,avg}"),
        "q=" + enc("name:synth_*") + "&cf=" + enc("metric{trend;outlier;frequency:1,5}"),
        "q=" + enc("name:synth_*") + "&cf=" + enc("metric{fastdtw:name:synth_trend,5,0.8}"),
        "q=" + enc("name:synth_*") + "&cf=" + enc("metric{sax:*a*,10,4,0.01}"),
        "q=" + enc("name:synth_*") + "&cf=" + enc("metric{seasonal:24}"),
        "q=" + enc("name:synth_*") + "&fq=" + enc("{!ANALYZE detect=trend}") + "&fl=name",
        "q=" + enc("name:synth_*") + "&fq=" + enc("{!ANALYZE detect=outlier}") + "&fl=name",
        "q=" + enc("name:synth_*") + "&fq=" + enc("{!ANALYZE detect=seasonal:24}") + "&fl=name",
        "q=" + enc("name:synth_*") + "&fq=" + enc("{!ANALYZE detect=frequency:1,5}") + "&fl=name",
        "q=" + enc("name:synth_*") + "&fq=" + enc("{!ANALYZE detect='fastdtw:name:synth_trend,5,0.8'}") + "&fl=name",
        "q=" + enc("name:synth_*") + "&fq=" + enc("{!ANALYZE detect='sax:*a*,10,4,0.01'}") + "&fl=name",
        "q=" + enc("name:synth_*") + "&cj=host&fq=" + enc("{!ANALYZE detect=trend}") + "&cf=" + enc("metric{max}"));
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @MethodSource("queries")
  void singleCoreAndTwoShardsAnswerIdentically(String query) throws Exception {
    JsonNode expected = response(single.solrUrl(), query);
    assertTrue(expected.at("/numFound").asInt() > 0 || query.contains("rows=0") || query.contains("ANALYZE"),
        "query finds something: " + query + " -> " + expected);
    assertEquals(expected, response(cloudSolrUrl, query), "a Solr node: " + query);
    assertEquals(expected, response(cloudFront.solrUrl(), query), "the first ingest node: " + query);
    assertEquals(expected, response(cloudSecond.solrUrl(), query), "the second ingest node: " + query);
  }

  @Test
  void analyzeFiltersActuallyFilter() throws Exception {
    JsonNode all = response(single.solrUrl(), "q=" + enc("name:synth_*") + "&fl=name");
    JsonNode trending = response(single.solrUrl(), "q=" + enc("name:synth_*") + "&fl=name&fq=" + enc("{!ANALYZE detect=trend}"));
    assertTrue(trending.at("/numFound").asInt() > 0 && trending.at("/numFound").asInt() < all.at("/numFound").asInt(),
        all + " vs " + trending);
  }

  /** Partial answers and reference blobs are for coordinators: a client sending them is refused unread. */
  @Test
  void internalParametersFromAClientAreRefused() throws Exception {
    java.io.ByteArrayOutputStream zeros = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(zeros)) {
      gzip.write(new byte[64 << 20]); // 64 MiB of zeros in about 64 kB: a decompression bomb
    }
    byte[] bomb = new byte[zeros.size() + 6];
    bomb[0] = 2;
    bomb[1] = 1; // blob format 2, gzip
    System.arraycopy(zeros.toByteArray(), 0, bomb, 2, zeros.size());
    String injected = "q=" + enc("name:synth_*") + "&cf=" + enc("metric{fastdtw:(name:x),1,0.5}")
        + "&chronix.refQuery=" + enc("name:x") + "&chronix.refData=" + enc(java.util.Base64.getEncoder().encodeToString(bomb));
    for (String url : List.of(cloudSolrUrl, single.solrUrl())) {
      for (String query : List.of("q=*:*&chronix.partial=true", injected)) {
        HttpResponse<String> response = TestHttp.post(url + "/chronix/query?wt=json", query, false,
            "application/x-www-form-urlencoded");
        assertEquals(403, response.statusCode(), url + ": " + response.body());
        assertTrue(response.body().contains("internal to distributed queries"), response.body());
      }
    }
    HttpResponse<String> forged = TestHttp.get(cloudSolrUrl + "/chronix/query?wt=json&q=*:*&chronix.partial=true"
        + "&chronix.sigTime=" + System.currentTimeMillis() + "&chronix.sig=forged");
    assertEquals(403, forged.statusCode());
    assertTrue(forged.body().contains("the signature does not match"), forged.body());
  }

  private static JsonNode response(String solrUrl, String query) throws Exception {
    HttpResponse<String> response = TestHttp.get(solrUrl + "/chronix/query?wt=json&" + query);
    assertEquals(200, response.statusCode(), query + " -> " + response.body());
    return TestHttp.JSON.readTree(response.body()).get("response");
  }
}
