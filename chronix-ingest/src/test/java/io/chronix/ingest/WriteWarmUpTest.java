package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start's warm-up runs the whole write path over a scratch core and directory and leaves the
 * user's records, log and data directory as they were; a crash's leftovers go at the next start,
 * and a core of the scratch core's name that the server did not make is never dropped.
 */
class WriteWarmUpTest {

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

      WriteWarmUp.Outcome outcome = WriteWarmUp.run(config(true), server.solrNode());

      // every request answered 204 (run throws otherwise), and its points went all the way into records
      assertTrue(outcome.requests() >= 100, "requests: " + outcome.requests());
      assertTrue(outcome.records() >= 8 + 30 * 10 + 120, "records of the scratch core: " + outcome.records());
      assertNoScratchLeft();
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
      WriteWarmUp.Outcome outcome = WriteWarmUp.run(config, server.solrNode());
      assertTrue(outcome.records() >= 8 + 30 * 10 + 120, "records of the scratch core: " + outcome.records());
      assertNoScratchLeft();
      assertEquals(0, TestHttp.query(server.solrUrl(), "chronix_rollups", "*:*", "&rows=0")
          .at("/response/numFound").asInt(), "no rollups of the warm-up's points");
    }
    assertEquals(0, Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("chronix-warmup")).count(), "the warm-up's Jetty stopped");
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
      Path log = dataDir.resolve(WriteWarmUp.DIRECTORY).resolve("wal");
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
      assertThrows(IllegalStateException.class, () -> WriteWarmUp.run(config(true), server.solrNode()));
      assertThrows(IllegalStateException.class, () -> server.solrNode().dropScratchCore("chronix_warmup"));
      assertTrue(server.solrNode().coreContainer().getCoreDescriptor("chronix_warmup") != null);
    }
    try (ChronixServer server = new ChronixServer(config(false)).start()) {
      assertEquals(204, TestHttp.get(server.baseUrl() + "/ping").statusCode());
    }
    assertEquals(properties, Files.readString(core.resolve("core.properties"), StandardCharsets.UTF_8));
    assertTrue(Files.exists(core.resolve("conf").resolve("schema.xml")));
  }

  private void assertNoScratchLeft() {
    assertFalse(Files.exists(dataDir.resolve(WriteWarmUp.DIRECTORY)), "the warm-up's directory is gone");
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
