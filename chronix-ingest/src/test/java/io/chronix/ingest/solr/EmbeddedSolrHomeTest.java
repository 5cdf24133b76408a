package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The solr.xml of a data directory written by an earlier release, and one the operator wrote; the
 * node's key pair it names.
 */
class EmbeddedSolrHomeTest {

  private static final String PLAIN = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr/>\n";
  private static final String ALLOW_PATHS = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr>\n"
      + "  <str name=\"allowPaths\">${solr.allowPaths:*}</str>\n</solr>\n";

  @TempDir Path dataDir;
  @TempDir Path backups;

  private ChronixServer start(String... settings) throws Exception {
    ServerConfig config = ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString());
    for (int i = 0; i < settings.length; i += 2) {
      config = config.with(settings[i], settings[i + 1]);
    }
    return new ChronixServer(config).start();
  }

  private static HttpResponse<String> backup(ChronixServer server, Path dir) throws Exception {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/admin/backup?dir="
            + URLEncoder.encode(dir.toString(), StandardCharsets.UTF_8))).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @ParameterizedTest
  @ValueSource(strings = {PLAIN, ALLOW_PATHS})
  void theSolrXmlOfAnEarlierReleaseIsReplacedSoBackupsMayLeaveTheHome(String earlier) throws Exception {
    Path solrXml = dataDir.resolve("solr").resolve("solr.xml");
    Files.createDirectories(solrXml.getParent());
    Files.writeString(solrXml, earlier, StandardCharsets.UTF_8);
    try (ChronixServer server = start()) {
      String now = Files.readString(solrXml);
      assertTrue(now.contains("allowPaths") && now.contains("pkiHandlerPrivateKeyPath"), now);
      HttpResponse<String> answer = backup(server, backups.resolve(earlier.length() + ""));
      assertEquals(200, answer.statusCode(), answer.body());
    }
  }

  /** The key Solr's node serves for other nodes to check its signatures. */
  private static String servedKey(ChronixServer server) throws Exception {
    HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/solr/admin/info/key?wt=json")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, answer.statusCode(), answer.body());
    return new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer.body()).path("key").asText();
  }

  @Test
  void theNodeSignsWithThePairKeptInItsHomeAcrossRestarts() throws Exception {
    Path publicKey = dataDir.resolve("solr").resolve("pki").resolve("node-public.der");
    String first;
    try (ChronixServer server = start("solr.openAdminHandlers", "true")) {
      first = servedKey(server);
      assertEquals(Base64.getEncoder().encodeToString(Files.readAllBytes(publicKey)), first,
          "Solr serves the pair under pki/, not one of its own");
    }
    try (ChronixServer server = start("solr.openAdminHandlers", "true")) {
      assertEquals(first, servedKey(server), "the same pair after a restart");
    }
  }

  @Test
  void aSolrXmlTheOperatorWroteIsKept() throws Exception {
    Path solrXml = dataDir.resolve("solr").resolve("solr.xml");
    Files.createDirectories(solrXml.getParent());
    String own = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr>\n  <int name=\"maxBooleanClauses\">2048</int>\n</solr>\n";
    Files.writeString(solrXml, own, StandardCharsets.UTF_8);
    try (ChronixServer server = start()) {
      assertEquals(own, Files.readString(solrXml), "not ours to change");
      assertFalse(Files.exists(dataDir.resolve("solr").resolve("pki")), "no key pair that solr.xml does not name");
      // without allowPaths Solr keeps backups inside its home: the refusal names the path
      HttpResponse<String> answer = backup(server, backups.resolve("two"));
      assertEquals(500, answer.statusCode(), answer.body());
      assertTrue(answer.body().contains("two must be relative to SOLR_HOME") && answer.body().contains("solr.allowPaths"),
          answer.body());
    }
  }
}
