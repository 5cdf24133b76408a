package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndToEndTest {

  @TempDir Path dataDir;
  private ChronixServer server;

  /** Solr's update handler open: tests write broken records and use the node as another server's Solr. */
  private static ServerConfig config(Path dataDir) {
    return ServerConfig.defaults().with("solr.openAdminHandlers", "true")
        .withEphemeralPorts()
        .with("data.dir", dataDir.toString())
        // small chunks, so that reading back joins several records of one series
        .with("chunk.maxPoints", "1000");
  }

  private ChronixServer start() throws Exception {
    server = new ChronixServer(config(dataDir)).start();
    return server;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  static Path p4File(String metricPart) throws IOException {
    Path dir = Path.of(System.getProperty("chronix.p4.dir", "../shared/data/p4"));
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().contains(metricPart)).sorted().findFirst()
          .orElseThrow(() -> new AssertionError("no P4 file with " + metricPart + " in " + dir.toAbsolutePath()));
    }
  }

  private static String nameQuery(String name) {
    return "name:" + ClientUtils.escapeQueryChars(name);
  }

  @Test
  void importedP4FilesReadBackBitExact() throws Exception {
    start();
    List<Path> files = List.of(p4File("PS-Eden-Space-type-MemoryPool-PeakUsage-used"), p4File("\\CPU\\hi"));
    CsvImporter.Summary summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
        new PrintStream(new ByteArrayOutputStream()), false).importFiles(files, 2);
    assertEquals(List.of(), summary.failures());
    for (Path file : files) {
      P4File original = new P4CsvReader().read(file);
      assertTrue(original.points().size() > 1000, "file spans several chunks");
      JsonNode response = TestHttp.query(server.solrUrl(),
          nameQuery(original.key().name()) + " AND host:" + original.key().attributes().get("host"),
          "&fl=dataAsJson,name,host,process,group,count&precision=ns");
      assertEquals(1, response.at("/response/numFound").asInt(), response.toString());
      JsonNode doc = response.at("/response/docs/0");
      assertEquals(original.key().name(), doc.get("name").asText());
      assertEquals(original.key().attributes().get("process"), doc.get("process").asText());
      assertEquals(original.key().attributes().get("group"), doc.get("group").asText());
      Points expected = original.points();
      expected.sortAndDeduplicate();
      assertEquals(expected, TestHttp.pointsOf(doc));
      assertEquals(expected.size(), doc.get("count").asInt());
    }
    assertEquals(summary.points(), files.stream().mapToLong(f -> {
      try {
        return new P4CsvReader().read(f).points().size();
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }).sum());
  }

  @Test
  void lineProtocolReadsBackBitExactWithRangeClipping() throws Exception {
    start();
    String body = String.join("\n",
        "net,host=web1,if=eth0 rx=1.5,tx=7i 1439393134415123456",
        "net,host=web1,if=eth0 rx=0.30000000000000004 1439393134415123999",
        "net,host=web1,if=eth0 rx=-0 1439393136000000000",
        "net,host=web1,if=eth0 rx=3 1439393135000000001",  // out of order
        "net,host=web1,if=eth0 rx=4.25 1439393135000000001",  // same timestamp: last write wins
        "net,host=web2,if=eth0 rx=9 1439393134415123456");
    HttpResponse<String> write = TestHttp.post(server.baseUrl() + "/write?db=telegraf", body, true);
    assertEquals(204, write.statusCode(), write.body());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

    JsonNode all = TestHttp.query(server.solrUrl(), "name:net_rx AND host:web1", "&fl=dataAsJson&precision=ns");
    assertEquals(1, all.at("/response/numFound").asInt());
    Points rx = TestHttp.pointsOf(all.at("/response/docs/0"));
    assertEquals(Points.wrap(
        new long[] {1439393134415123456L, 1439393134415123999L, 1439393135000000001L, 1439393136000000000L},
        new double[] {1.5, 0.30000000000000004, 4.25, -0.0}, 4), rx);

    JsonNode clipped = TestHttp.query(server.solrUrl(),
        "name:net_rx AND host:web1 AND start:1439393134416 AND end:1439393135000", "&fl=dataAsJson&precision=ns");
    assertEquals(Points.wrap(new long[] {1439393135000000001L}, new double[] {4.25}, 1),
        TestHttp.pointsOf(clipped.at("/response/docs/0")));
    assertEquals(1439393134416L, clipped.at("/responseHeader/chronixRange/start").asLong());

    JsonNode iso = TestHttp.query(server.solrUrl(), "name:net_rx AND start:2015-08-12T15:25:35Z AND end:NOW",
        "&fl=dataAsJson,host&precision=ms");
    assertEquals(1, iso.at("/response/numFound").asInt(), "web2 has no point in range");
    assertEquals("{\"timestamps\":[1439393135000,1439393136000],\"values\":[4.25,-0.0]}",
        iso.at("/response/docs/0/dataAsJson").asText());

    JsonNode tx = TestHttp.query(server.solrUrl(), "name:net_tx", "&fl=dataAsJson&precision=us");
    assertEquals("{\"timestamps\":[1439393134415123],\"values\":[7]}", tx.at("/response/docs/0/dataAsJson").asText(),
        "7i is an exact long");

    JsonNode joined = TestHttp.query(server.solrUrl(), "name:net_rx", "");
    assertEquals(1, joined.at("/response/numFound").asInt(), "default join: name and type");
    assertEquals("[\"web1\",\"web2\"]", joined.at("/response/docs/0/host").toString(), "attributes merged");
    assertEquals(4, joined.at("/response/docs/0/count").asInt(), "web2 shares a timestamp with web1: de-duplicated");

    JsonNode perHost = TestHttp.query(server.solrUrl(), "name:net_rx", "&cj=name,type,host");
    assertEquals(2, perHost.at("/response/numFound").asInt());
    assertEquals("web1", perHost.at("/response/docs/0/host").asText());
    assertEquals(4, perHost.at("/response/docs/0/count").asInt());
  }

  @Test
  void seriesQueriesAreGzippedWhenTheClientAcceptsIt() throws Exception {
    start();
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      lines.append("zipped,host=a value=").append(i * 0.25).append(' ').append(1_600_000_000L + i).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=s", lines.toString(), false).statusCode());
    String url = server.solrUrl() + "/chronix/query?q=name:zipped&fl=dataAsJson";
    java.net.http.HttpClient client = TestHttp.CLIENT;
    HttpResponse<byte[]> zipped = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
        .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, zipped.statusCode());
    assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""));
    String plain = TestHttp.get(url).body();
    try (java.io.InputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(zipped.body()))) {
      assertEquals(TestHttp.JSON.readTree(plain).at("/response"), TestHttp.JSON.readTree(in.readAllBytes()).at("/response"),
          "the same series either way (only QTime differs)");
    }
    assertTrue(zipped.body().length * 3 < plain.length(), zipped.body().length + " gzipped bytes of " + plain.length());
  }

  @Test
  void badInputIsRejectedWithLineAndProblemAndNotStored() throws Exception {
    start();
    HttpResponse<String> response = TestHttp.post(server.baseUrl() + "/write?precision=s",
        "good value=1 1439393134\nbroken,host=a value=abc 1439393134\nalso,host=a value=2,s=\"unclosed 1439393134\n", false);
    assertEquals(400, response.statusCode());
    JsonNode error = TestHttp.JSON.readTree(response.body());
    assertTrue(error.get("error").asText().contains("line 2"), response.body());
    assertEquals(2, error.get("errors").get(0).get("line").asInt());
    assertTrue(error.get("errors").get(0).get("problem").asText().contains("'abc' is not a number"), response.body());
    assertEquals(3, error.get("errors").get(1).get("line").asInt());
    assertEquals(1, error.get("stored").asInt());

    HttpResponse<String> precision = TestHttp.post(server.baseUrl() + "/write?precision=fortnight", "x value=1 1", false);
    assertEquals(400, precision.statusCode());
    assertTrue(precision.body().contains("unsupported precision 'fortnight'"), precision.body());

    HttpResponse<String> notGzip = TestHttp.post(server.baseUrl() + "/write", "x value=1 1", false);
    assertEquals(204, notGzip.statusCode());

    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    assertEquals(1, TestHttp.query(server.solrUrl(), "name:good", "").at("/response/numFound").asInt());
    assertEquals(0, TestHttp.query(server.solrUrl(), "name:broken OR name:also OR name:also_s", "").at("/response/numFound").asInt());

    HttpResponse<String> badQuery = TestHttp.get(server.solrUrl() + "/chronix/query?q=start:tomorrowish");
    assertEquals(400, badQuery.statusCode());
    assertTrue(badQuery.body().contains("start:tomorrowish"), badQuery.body());
  }

  @Test
  void bufferedPointsSurviveACleanStop() throws Exception {
    start();
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", "mem,host=a value=7 1000\nmem,host=a value=8 2000", false).statusCode());
    assertEquals(2, server.buffers().bufferedPoints(), "not yet flushed");
    server.close();
    server = null;
    start();
    JsonNode response = TestHttp.query(server.solrUrl(), "name:mem", "&fl=dataAsJson");
    assertEquals("{\"timestamps\":[1000,2000],\"values\":[7,8]}", response.at("/response/docs/0/dataAsJson").asText());
  }

  @Test
  void externalSolrIsUsedWhenConfigured(@TempDir Path otherDir) throws Exception {
    start();
    try (ChronixServer front = new ChronixServer(config(otherDir).with("solr.url", server.solrUrl())).start()) {
      assertEquals(204, TestHttp.post(front.baseUrl() + "/write?precision=s", "ext,host=z value=5 100", false).statusCode());
      assertEquals(204, TestHttp.post(front.baseUrl() + "/flush", "", false).statusCode());
      assertEquals(404, TestHttp.get(front.baseUrl() + "/solr/chronix/query?q=*:*").statusCode(), "no embedded node");
      for (String path : new String[] {"/admin/backup", "/admin/restore"}) {
        HttpResponse<String> notHere = TestHttp.post(front.baseUrl() + path, "", false);
        assertEquals(501, notHere.statusCode(), path + ": " + notHere.body());
        assertTrue(notHere.body().contains("use Solr's own backup"), notHere.body());
      }
    }
    JsonNode response = TestHttp.query(server.solrUrl(), "name:ext", "&fl=dataAsJson&precision=s");
    assertEquals("{\"timestamps\":[100],\"values\":[5]}", response.at("/response/docs/0/dataAsJson").asText());
    assertTrue(Files.exists(dataDir.resolve("solr")), "the embedded node holds the index");
    assertTrue(!Files.exists(otherDir.resolve("solr")), "the front server keeps no index of its own");
  }

  @Test
  void aCorruptRecordIsReportedByIdAndSeries() throws Exception {
    start();
    try (org.apache.solr.client.solrj.SolrClient solr =
        new org.apache.solr.client.solrj.impl.Http2SolrClient.Builder(server.solrUrl()).build()) {
      org.apache.solr.common.SolrInputDocument record = new org.apache.solr.common.SolrInputDocument();
      record.setField("id", "deadbeef!1");
      record.setField("name", "broken_series");
      record.setField("type", "metric");
      record.setField("start", 1L);
      record.setField("end", 2L);
      record.setField("count", 2L);
      record.setField("data", new byte[] {1, 1, 31, -117, 8, 0, 0, 0});
      record.setField("host", "h");
      solr.add("chronix", record);
      solr.commit("chronix");
    }
    HttpResponse<String> response = TestHttp.get(server.solrUrl() + "/chronix/query?q=name:broken_series&fl=dataAsJson");
    assertEquals(500, response.statusCode());
    assertTrue(response.body().contains("record deadbeef!1 of series") && response.body().contains("broken_series"), response.body());
  }

  @Test
  void queriesOverThePointLimitAreRefusedBeforeDecoding() throws Exception {
    System.setProperty("chronix.maxDecodedPoints", "5");
    try {
      start();
    } finally {
      System.clearProperty("chronix.maxDecodedPoints");
    }
    for (int[] span : new int[][] {{0, 3}, {3, 10}}) { // two records: 3 and 7 points
      StringBuilder body = new StringBuilder();
      for (int i = span[0]; i < span[1]; i++) {
        body.append("many value=").append(i).append(' ').append(i).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=s", body.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    }
    HttpResponse<String> response = TestHttp.get(server.solrUrl() + "/chronix/query?q=name:many");
    assertEquals(400, response.statusCode());
    assertTrue(response.body().contains("more than 5 points"), response.body());
    assertEquals(1, TestHttp.query(server.solrUrl(), "name:many AND end:2000", "").at("/response/numFound").asInt(),
        "a narrower range reads fewer records");
  }

  @Test
  void functionsThroughSolrEqualTheLibraryOnTheRawData() throws Exception {
    start();
    Path file = p4File("PS-Eden-Space-type-MemoryPool-PeakUsage-used");
    new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC, new PrintStream(new ByteArrayOutputStream()), false)
        .importFiles(List.of(file), 1);
    P4File original = new P4CsvReader().read(file);
    Points points = original.points();
    points.sortAndDeduplicate();
    JsonNode response = TestHttp.query(server.solrUrl(), nameQuery(original.key().name()),
        "&cf=" + java.net.URLEncoder.encode("metric{max;count;p:0.99;trend;outlier}", java.nio.charset.StandardCharsets.UTF_8));
    JsonNode functions = response.at("/response/docs/0/functions");
    assertEquals(5, functions.size(), response.toString());
    double[] values = java.util.Arrays.copyOf(points.valueArray(), points.size());
    assertEquals(java.util.Arrays.stream(values).max().getAsDouble(), functions.get(0).get("value").asDouble());
    assertEquals(points.size(), functions.get(1).get("value").asInt());
    assertEquals(new org.apache.commons.math3.stat.descriptive.rank.Percentile().evaluate(values, 99),
        functions.get(2).get("value").asDouble());
    org.apache.commons.math3.stat.regression.SimpleRegression regression = new org.apache.commons.math3.stat.regression.SimpleRegression();
    for (int i = 0; i < points.size(); i++) {
      regression.addData((points.timestamp(i) - points.timestamp(0)) / 1e9, points.value(i));
    }
    assertEquals(regression.getSlope(), functions.get(3).get("slope").asDouble(), Math.abs(regression.getSlope()) * 1e-9);
    assertEquals(regression.getSlope() > 0, functions.get(3).get("matches").asBoolean());
    assertEquals("outlier", functions.get(4).get("name").asText());
  }

  @Test
  void badFunctionsAreNamedIn400s() throws Exception {
    start();
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=s", "f value=1 1\nf value=2 2", false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    String[][] cases = {
        {"cf=" + enc("metric{maxx}"), "maxx"},
        {"cf=" + enc("metric{p}"), "p"},
        {"cf=" + enc("metric{scale:four}"), "scale"},
        {"cf=" + enc("metric{max"), "cf"},
        {"fq=" + enc("{!ANALYZE detect=max}"), "not an analysis"},
        {"fq=" + enc("{!ANALYZE}"), "detect"},
        {"cf=" + enc("metric{fastdtw:name:nothing,5,0.5}"), "matches 0 series"},
        {"cj=data", "cj"}};
    for (String[] bad : cases) {
      HttpResponse<String> response = TestHttp.get(server.solrUrl() + "/chronix/query?q=name:f&" + bad[0]);
      assertEquals(400, response.statusCode(), bad[0] + " -> " + response.body());
      assertTrue(response.body().contains(bad[1]), bad[0] + " -> " + response.body());
    }
  }

  private static String enc(String text) {
    return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void integerStringAndBooleanSeriesAreStoredAndReturnedAsSuch() throws Exception {
    start();
    String body = String.join("\n",
        "svc,host=a state=\"running\",up=t,restarts=9007199254740993i,uptime=5u 1000",
        "svc,host=a state=\"stopped: exit 1\",up=f,restarts=9007199254740994i,uptime=7u 2000",
        "svc,host=a state=\"running\",up=true,restarts=9007199254740995i,uptime=9u 3000");
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", body, false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    assertEquals("{\"timestamps\":[1000,2000,3000],\"values\":[\"running\",\"stopped: exit 1\",\"running\"]}",
        TestHttp.query(server.solrUrl(), "name:svc_state", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText());
    assertEquals("string", TestHttp.query(server.solrUrl(), "name:svc_state", "").at("/response/docs/0/type").asText());
    assertEquals("{\"timestamps\":[1000,2000,3000],\"values\":[true,false,true]}",
        TestHttp.query(server.solrUrl(), "name:svc_up", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText());
    assertEquals("{\"timestamps\":[1000,2000,3000],\"values\":[9007199254740993,9007199254740994,9007199254740995]}",
        TestHttp.query(server.solrUrl(), "name:svc_restarts", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText(),
        "longs beyond 2^53 stay exact");
    JsonNode max = TestHttp.query(server.solrUrl(), "name:svc_uptime", "&cf=" + enc("long{max;count}"));
    assertEquals(9.0, max.at("/response/docs/0/functions/0/value").asDouble(), "functions see long series as numbers");
    assertEquals(3, max.at("/response/docs/0/functions/1/value").asInt());
  }
}
