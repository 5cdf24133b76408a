package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The solr.xml of a data directory written by an earlier release, and one the operator wrote. */
class EmbeddedSolrHomeTest {

  private static final String PLAIN = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr/>\n";

  @TempDir Path dataDir;
  @TempDir Path backups;

  private ChronixServer start() throws Exception {
    return new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())).start();
  }

  private static HttpResponse<String> backup(ChronixServer server, Path dir) throws Exception {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/admin/backup?dir="
            + URLEncoder.encode(dir.toString(), StandardCharsets.UTF_8))).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void thePlainSolrXmlOfAnEarlierReleaseIsReplacedSoBackupsMayLeaveTheHome() throws Exception {
    Path solrXml = dataDir.resolve("solr").resolve("solr.xml");
    Files.createDirectories(solrXml.getParent());
    Files.writeString(solrXml, PLAIN, StandardCharsets.UTF_8);
    try (ChronixServer server = start()) {
      assertTrue(Files.readString(solrXml).contains("allowPaths"), Files.readString(solrXml));
      HttpResponse<String> answer = backup(server, backups.resolve("one"));
      assertEquals(200, answer.statusCode(), answer.body());
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
      // without allowPaths Solr keeps backups inside its home: the refusal names the path
      HttpResponse<String> answer = backup(server, backups.resolve("two"));
      assertEquals(500, answer.statusCode(), answer.body());
      assertTrue(answer.body().contains("two must be relative to SOLR_HOME") && answer.body().contains("solr.allowPaths"),
          answer.body());
    }
  }
}
