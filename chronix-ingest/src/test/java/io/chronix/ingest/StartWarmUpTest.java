package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.live.LiveSeries;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.security.Credentials;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start's warm-up runs the whole write and query paths over a scratch core and directory and leaves the
 * user's records, log and data directory as they were; a crash's leftovers go at the next start,
 * and a core of the scratch core's name that the server did not make is never dropped.
 */
class StartWarmUpTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dataDir;

  private ServerConfig config(boolean warmUp) {
    return ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
        .with("startup.warmUp", Boolean.toString(warmUp));
  }

  @Test
  void warmsUpBesideTheRecordsAndLeavesThemAsTheyWere() throws Exception {
    try (ChronixServer server = new ChronixServer(config(false)).start()) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 50; i++) {
        lines.append("cpu,host=a value=").append(i).append(' ').append(T0 + i * 1000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      // buffered, logged, not yet a record: the warm-up must leave the log and buffers alone too
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "cpu,host=a value=99 " + (T0 + 60_000) + "\n", false).statusCode());
      String walBefore = listing(dataDir.resolve("wal"));

      StartWarmUp.Outcome outcome = StartWarmUp.run(config(true), server.solrNode(), ForkJoinPool.commonPool());

      // every write answered 204 and every query 200 (run throws otherwise), and its points went all
      // the way into records
      assertTrue(outcome.writes() >= 100, "writes: " + outcome.writes());
      assertEquals(2 * 40 * 10, outcome.queries(), "each query while buffered and as records");
      assertTrue(outcome.records() >= 8 + 30 * 10 + 120, "records of the scratch core: " + outcome.records());
      assertNoScratchLeft();
      assertEquals(null, server.solrNode().coreContainer().getObjectCache()
          .get(LiveSeries.containerKey(StartWarmUp.scratchCore(config(true)))), "the scratch buffers taken back");
      assertEquals(walBefore, listing(dataDir.resolve("wal")));
      JsonNode all = TestHttp.query(server.solrUrl(), "*:*", "&fl=name&rows=100").at("/response");
      assertEquals(1, all.get("numFound").asInt(), "one series, the user's");
      assertEquals("cpu", all.at("/docs/0/name").asText());
      JsonNode points = TestHttp.query(server.solrUrl(), "name:cpu", "&fl=points").at("/response/docs/0/points");
      assertEquals(51, points.get("values").size(), "the stored and the buffered points");
    }
    try (ChronixServer server = new ChronixServer(config(true)).start()) { // warmed at its start
      assertNoScratchLeft();
      assertEquals(51, TestHttp.query(server.solrUrl(), "name:cpu", "&fl=points")
          .at("/response/docs/0/points/values").size(), "replayed from the user's log, untouched by the warm-up");
      assertEquals(0, TestHttp.query(server.solrUrl(), "name:" + WarmUpLoad.MEASUREMENT, "&rows=0")
          .at("/response/numFound").asInt());
    }
  }

  @Test
  void warmsUpUnderRollupsAndRetentionRulesWithoutTheirWork() throws Exception {
    ServerConfig config = config(true).with("rollup.tiers", "5m,1h").with("rollup.retention", "1h=20d")
        .with("retention.default", "30d").with("retention.rules", "cpu*=2d").with("solr.openAdminHandlers", "true");
    try (ChronixServer server = new ChronixServer(config).start()) {
      StartWarmUp.Outcome outcome = StartWarmUp.run(config, server.solrNode(), ForkJoinPool.commonPool());
      assertTrue(outcome.records() >= 8 + 30 * 10 + 120, "records of the scratch core: " + outcome.records());
      assertNoScratchLeft();
      assertEquals(0, TestHttp.query(server.solrUrl(), "chronix_rollups", "*:*", "&rows=0")
          .at("/response/numFound").asInt(), "no rollups of the warm-up's points");
    }
    assertEquals(0, Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("chronix-warmup")).count(), "the warm-up's Jetty stopped");
  }

  /** The server's own access control is its Jetty's: the warm-up's Jetty serves the scratch core alone, unasked. */
  @Test
  void warmsUpWithAuthOn() throws Exception {
    ServerConfig config = config(false).with("auth.enabled", "true").with("auth.token.agent.roles", "write")
        .with("auth.token.agent.sha256", Credentials.hashToken("agent-token-0123456789"));
    try (ChronixServer server = new ChronixServer(config).start()) {
      StartWarmUp.Outcome outcome = StartWarmUp.run(config.with("startup.warmUp", "true"), server.solrNode(),
          ForkJoinPool.commonPool());
      assertEquals(2 * 40 * 10, outcome.queries());
      assertNoScratchLeft();
    }
  }

  /**
   * A query the server's limits refuse (here a core that decodes at most 100 points a query) ends
   * the warm-up with what was refused, and leaves nothing of it: the start then goes on without it.
   */
  @Test
  void aQueryTheLimitsRefuseEndsTheWarmUpCleanly() throws Exception {
    try (ChronixServer server = new ChronixServer(config(false)).start()) {
      System.setProperty("chronix.maxDecodedPoints", "100"); // read as the scratch core loads
      IOException refused;
      try {
        refused = assertThrows(IOException.class,
            () -> StartWarmUp.run(config(true), server.solrNode(), ForkJoinPool.commonPool()));
      } finally {
        System.clearProperty("chronix.maxDecodedPoints");
      }
      assertTrue(refused.getMessage().contains("answered 400") && refused.getMessage().contains("maxDecodedPoints"),
          refused.getMessage());
      assertNoScratchLeft();
      assertEquals(null, server.solrNode().coreContainer().getObjectCache()
          .get(LiveSeries.containerKey(StartWarmUp.scratchCore(config(true)))));
      assertEquals(204, TestHttp.get(server.baseUrl() + "/ping").statusCode());
    }
  }

  @Test
  void aCrashsLeftoversGoAtTheNextStartWithOrWithoutTheWarmUp() throws Exception {
    for (boolean warmUp : new boolean[] {false, true}) {
      try (ChronixServer server = new ChronixServer(config(false)).start()) {
        assertTrue(server.baseUrl().startsWith("http"));
      }
      // what a crash in the middle of a warm-up leaves: the scratch core, registered, and its log
      Path core = dataDir.resolve("solr").resolve("chronix_warmup");
      copyConfigSet(core);
      Files.writeString(core.resolve("core.properties"),
          "name=chronix_warmup\nchronix.scratch=true\nchronix.updateLog=false\n", StandardCharsets.UTF_8);
      Path log = dataDir.resolve(StartWarmUp.DIRECTORY).resolve("wal");
      Files.createDirectories(log);
      Files.write(log.resolve("segment-00000000000000000001.wal"), new byte[] {1, 2, 3});

      try (ChronixServer server = new ChronixServer(config(warmUp)).start()) {
        assertNoScratchLeft();
        assertTrue(server.solrNode().coreContainer().getCoreDescriptor("chronix_warmup") == null,
            "the scratch core is not loaded, warm-up " + warmUp);
      }
    }
  }

  @Test
  void aCoreOfTheScratchNameThatTheServerDidNotMakeStays() throws Exception {
    try (ChronixServer server = new ChronixServer(config(false)).start()) {
      assertTrue(server.baseUrl().startsWith("http"));
    }
    Path core = dataDir.resolve("solr").resolve("chronix_warmup");
    copyConfigSet(core);
    String properties = "name=chronix_warmup\nchronix.updateLog=false\n";
    Files.writeString(core.resolve("core.properties"), properties, StandardCharsets.UTF_8);

    try (ChronixServer server = new ChronixServer(config(true)).start()) { // starts, without the warm-up
      assertEquals(204, TestHttp.get(server.baseUrl() + "/ping").statusCode());
      assertThrows(IllegalStateException.class,
          () -> StartWarmUp.run(config(true), server.solrNode(), ForkJoinPool.commonPool()));
      assertThrows(IllegalStateException.class, () -> server.solrNode().dropScratchCore("chronix_warmup"));
      assertTrue(server.solrNode().coreContainer().getCoreDescriptor("chronix_warmup") != null);
    }
    try (ChronixServer server = new ChronixServer(config(false)).start()) {
      assertEquals(204, TestHttp.get(server.baseUrl() + "/ping").statusCode());
    }
    assertEquals(properties, Files.readString(core.resolve("core.properties"), StandardCharsets.UTF_8));
    assertTrue(Files.exists(core.resolve("conf").resolve("schema.xml")));
  }

  /**
   * The warm-up's queries find what its writes wrote, buffered and as records: a query that found
   * nothing would leave the path it is there for cold (the warm-up itself checks the status alone).
   */
  @Test
  void everyQueryFindsWhatTheLoadWrote() throws Exception {
    long now = System.currentTimeMillis();
    try (ChronixServer server = new ChronixServer(config(false)).start()) {
      for (byte[] body : WarmUpLoad.bodies(8, 2_000, 1_000, 30, 8, now * 1_000_000L)) {
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write", new String(body, StandardCharsets.UTF_8), false)
            .statusCode());
      }
      for (byte[] body : WarmUpLoad.remoteWriteBodies(120, 30, 2, now)) {
        HttpResponse<String> written = TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
                + "/api/v1/write")).header("Content-Type", "application/x-protobuf").header("Content-Encoding", "snappy")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(204, written.statusCode(), written::body);
      }
      List<String> queries = WarmUpLoad.queries("chronix", 8, 3, now);
      assertEquals(30, queries.size());
      for (String stage : List.of("buffered", "records")) {
        for (String query : queries) {
          // as the warm-up asks: the Prometheus API's queries posted as forms, the series queries as GETs
          int mark = query.indexOf('?');
          HttpResponse<String> answer = query.startsWith("/api/v1/")
              ? TestHttp.post(server.baseUrl() + query.substring(0, mark), query.substring(mark + 1), false,
                  "application/x-www-form-urlencoded")
              : TestHttp.get(server.baseUrl() + query);
          assertEquals(200, answer.statusCode(), () -> query + ": " + answer.body());
          JsonNode json = TestHttp.JSON.readTree(answer.body());
          JsonNode found = query.startsWith("/solr/") ? json.at("/response/docs")
              : json.at("/data").has("result") ? json.at("/data/result") : json.at("/data");
          assertTrue(found.isArray() && found.size() > 0, () -> stage + ", nothing found by " + query + ": " + answer.body());
          if (query.contains("query_range")) {
            assertTrue(found.get(0).get("values").size() > 0, () -> stage + ", no values of " + query);
          }
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
    }
  }

  private void assertNoScratchLeft() {
    assertFalse(Files.exists(dataDir.resolve(StartWarmUp.DIRECTORY)), "the warm-up's directory is gone");
    assertFalse(Files.exists(dataDir.resolve("solr").resolve("chronix_warmup")), "the scratch core's directory is gone");
  }

  private void copyConfigSet(Path core) throws Exception {
    Path conf = dataDir.resolve("solr").resolve("chronix").resolve("conf");
    Files.createDirectories(core.resolve("conf"));
    try (Stream<Path> files = Files.list(conf)) {
      for (Path file : files.toList()) {
        Files.copy(file, core.resolve("conf").resolve(file.getFileName()));
      }
    }
  }

  /** The log's files with their sizes and contents' hash: what the warm-up must not change. */
  private static String listing(Path directory) throws Exception {
    StringBuilder listing = new StringBuilder();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.sorted().toList()) {
        listing.append(file.getFileName()).append(' ').append(Files.size(file)).append(' ')
            .append(java.util.Arrays.hashCode(Files.readAllBytes(file))).append('\n');
      }
    }
    return listing.toString();
  }
}
