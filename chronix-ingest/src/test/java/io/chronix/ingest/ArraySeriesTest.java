package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Array series end to end: line protocol and JSON-lines import in, log replay, records, /query and its functions out. */
class ArraySeriesTest {

  @TempDir Path dataDir;
  private ChronixServer server;

  private void start() throws Exception {
    server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())
        // two points a record: reading back joins records
        .with("chunk.maxPoints", "2")).start();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private JsonNode query(String q, String extra) throws Exception {
    return TestHttp.query(server.solrUrl(), q, extra);
  }

  private HttpResponse<String> rawQuery(String q, String extra) throws Exception {
    return TestHttp.get(server.solrUrl() + "/chronix/query?wt=json&q=" + enc(q) + extra);
  }

  /** The 400's problem for a line starts with the expected text. */
  private static void assertProblem(HttpResponse<String> answer, int line, String expected) throws Exception {
    for (JsonNode error : new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer.body()).at("/errors")) {
      if (error.at("/line").asInt() == line) {
        assertTrue(error.at("/problem").asText().startsWith(expected), expected + " in " + error);
        return;
      }
    }
    throw new AssertionError("no error for line " + line + " in " + answer.body());
  }

  private static final String CPU_LINES = String.join("\n",
      "cpu,host=a usage[0]=0.5,usage[1]=0.25,usage[2]=1i,idle=3 1000",
      "cpu,host=a usage[2]=0.75,usage[0]=0.125,usage[1]=0.5,idle=4 2000", // any order of indexes
      "cpu,host=a usage[0]=1,usage[1]=0 3000",
      "cpu,host=a usage[0]=2,usage[1]=1e-3,usage[2]=-0.5,idle=5 4000");
  private static final String CPU_JSON = "{\"timestamps\":[1000,2000,3000,4000],"
      + "\"values\":[[0.5,0.25,1],[0.125,0.5,0.75],[1,0],[2,0.001,-0.5]]}";

  @Test
  void lineProtocolArraysAreStoredAndReadBackBufferedReplayedAndFlushed() throws Exception {
    start();
    HttpResponse<String> write = TestHttp.post(server.baseUrl() + "/write?precision=ms", CPU_LINES, false);
    assertEquals(204, write.statusCode(), write.body());
    assertEquals(CPU_JSON, query("name:cpu_usage", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText(),
        "buffered arrays answer queries");
    assertEquals("{\"timestamps\":[1000,2000,4000],\"values\":[3,4,5]}",
        query("name:cpu_idle", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText(), "plain fields of the same lines");

    server.close(); // a clean stop keeps the buffered arrays in the log; the restart replays them
    server = null;
    start();
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    HttpResponse<String> records = TestHttp.get(server.solrUrl() + "/chronix/select?wt=json&rows=0&q=" + enc("name:cpu_usage"));
    assertTrue(records.body().contains("\"numFound\":2"), "two points a record: " + records.body());
    JsonNode series = query("name:cpu_usage", "&fl=dataAsJson,type,host");
    assertEquals(CPU_JSON, series.at("/response/docs/0/dataAsJson").asText(), "replayed, written as records, joined");
    assertEquals("array", series.at("/response/docs/0/type").asText());
    assertEquals("a", series.at("/response/docs/0/host").asText());
    assertEquals(0, server.buffers().bufferedPoints());
  }

  @Test
  void functionsApplyElementByElementAndAnalysesAreRefused() throws Exception {
    start();
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", CPU_LINES, false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

    JsonNode functions = query("name:cpu_usage", "&cf=" + enc("array{max;min;count;last}"));
    JsonNode values = functions.at("/response/docs/0/functions");
    assertEquals("[2.0,0.5,1.0]", values.at("/0/value").toString(), "max of each element");
    assertEquals("[0.125,0.0,-0.5]", values.at("/1/value").toString());
    assertEquals("[4.0,4.0,3.0]", values.at("/2/value").toString(), "points that have the element");
    assertEquals("[2.0,0.001,-0.5]", values.at("/3/value").toString());

    JsonNode downsampled = query("name:cpu_usage", "&fl=dataAsJson&cf=" + enc("array{downsample:2,s,max}"));
    assertEquals("{\"timestamps\":[0,2000,4000],\"values\":[[0.5,0.25,1],[1,0.5,0.75],[2,0.001,-0.5]]}",
        downsampled.at("/response/docs/0/dataAsJson").asText());

    HttpResponse<String> analysis = rawQuery("name:cpu_usage", "&cf=" + enc("array{outlier}"));
    assertEquals(400, analysis.statusCode(), analysis.body());
    assertTrue(analysis.body().contains("'outlier' does not apply to array series"), analysis.body());
    HttpResponse<String> filter = rawQuery("name:cpu_usage", "&fq=" + enc("{!ANALYZE detect=trend}"));
    assertEquals(400, filter.statusCode(), filter.body());
    assertTrue(filter.body().contains("'trend' does not apply to array series"), filter.body());

    // PromQL has no arrays: its selectors see the plain field only
    HttpResponse<String> promSeries = TestHttp.get(server.baseUrl() + "/api/v1/series?match[]=" + enc("{__name__=~\"cpu_.*\"}"));
    assertEquals(200, promSeries.statusCode(), promSeries.body());
    assertTrue(promSeries.body().contains("cpu_idle"), promSeries.body());
    assertFalse(promSeries.body().contains("cpu_usage"), promSeries.body());
  }

  @Test
  void aDeleteSplitsArrayRecordsAndCompactionJoinsThem() throws Exception {
    start();
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", CPU_LINES, false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    // both records (two points each) cross the range: each is rewritten with the point outside it
    HttpResponse<String> delete = TestHttp.post(server.baseUrl() + "/api/v1/admin/tsdb/delete_series",
        "q=" + enc("name:cpu_usage") + "&start=2&end=3", false, "application/x-www-form-urlencoded");
    assertEquals(200, delete.statusCode(), delete.body());
    String kept = "{\"timestamps\":[1000,4000],\"values\":[[0.5,0.25,1],[2,0.001,-0.5]]}";
    assertEquals(kept, query("name:cpu_usage", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText());
    HttpResponse<String> compaction = TestHttp.post(server.baseUrl() + "/compact", "", false);
    assertEquals(200, compaction.statusCode() / 100 * 100, compaction.body()); // two one-point records become one
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    HttpResponse<String> records = TestHttp.get(server.solrUrl() + "/chronix/select?wt=json&rows=0&q=" + enc("name:cpu_usage"));
    assertTrue(records.body().contains("\"numFound\":1"), "compacted: " + records.body());
    assertEquals(kept, query("name:cpu_usage", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText());
  }

  @Test
  void arrayElementsCountAgainstTheQueryLimit() throws Exception {
    System.setProperty("chronix.maxDecodedPoints", "10");
    try {
      start();
    } finally {
      System.clearProperty("chronix.maxDecodedPoints");
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", CPU_LINES, false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    // 4 points within the limit of 10, but 11 elements
    HttpResponse<String> refused = rawQuery("name:cpu_usage", "&fl=dataAsJson");
    assertEquals(400, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("more than 10 array elements (chronix.maxDecodedPoints)"), refused.body());
    assertEquals("{\"timestamps\":[1000,2000],\"values\":[[0.5,0.25,1],[0.125,0.5,0.75]]}",
        query("name:cpu_usage AND end:[* TO 2000]", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText(),
        "a narrower query reads one record of 6 elements");
  }

  @Test
  void badArrayFieldsRejectTheirLineOnly() throws Exception {
    start();
    String body = String.join("\n",
        "hist,host=a le[0]=1,le[2]=3 1000",              // gap
        "hist,host=a le[0]=1,le[0]=2 1000",              // repeat
        "hist,host=a le[0]=1,le[1]=\"many\" 1000",       // not a number
        "hist,host=a le=5,le[0]=1 1000",                 // value and array
        "hist,host=a le[0]=1,le[1]=2,le[2]=3 2000");     // fine
    HttpResponse<String> write = TestHttp.post(server.baseUrl() + "/write?precision=ms", body, false);
    assertEquals(400, write.statusCode(), write.body());
    assertProblem(write, 1, "array field 'le' has 2 elements but an index 2");
    assertProblem(write, 2, "array field 'le' gives element 0 twice");
    assertProblem(write, 3, "field 'le[1]': array elements are numbers");
    assertProblem(write, 4, "field 'le' is given both as a value and as an array");
    assertEquals("{\"timestamps\":[2000],\"values\":[[1,2,3]]}",
        query("name:hist_le", "&fl=dataAsJson").at("/response/docs/0/dataAsJson").asText(), "the good line is kept");
    assertEquals(1, query("name:hist*", "&fl=name").at("/response/numFound").asInt(), "nothing of the bad lines");
  }

  @Test
  void jsonLinesImportWritesArraysBitExact() throws Exception {
    start();
    String body = "{\"metric\":{\"__name__\":\"latency_buckets\",\"job\":\"api\"},\"timestamps\":[1000,2000],"
        + "\"values\":[[1,5,NaN,\"Inf\"],[2,7.25,1e-300,-0.0]]}\n"
        + "{\"metric\":{\"__name__\":\"mixed\"},\"timestamps\":[1000,2000],\"values\":[[1,2],3]}\n"
        + "{\"metric\":{\"__name__\":\"elements\"},\"timestamps\":[1000],\"values\":[[1,\"x\"]]}";
    HttpResponse<String> imported = TestHttp.post(server.baseUrl() + "/api/v1/import", body, false);
    assertEquals(400, imported.statusCode(), imported.body());
    assertProblem(imported, 2, "value 2 is not an array like the first value");
    assertProblem(imported, 3, "element 1 of value 1 is not a number");
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
    JsonNode series = query("name:latency_buckets", "&fl=dataAsJson,type,job");
    assertEquals("array", series.at("/response/docs/0/type").asText());
    assertEquals("api", series.at("/response/docs/0/job").asText());
    assertEquals("{\"timestamps\":[1000,2000],\"values\":[[1,5,\"NaN\",\"Infinity\"],[2,7.25,1.0E-300,-0.0]]}",
        series.at("/response/docs/0/dataAsJson").asText());
    assertEquals(0, query("name:mixed OR name:elements", "").at("/response/numFound").asInt());
  }
}
