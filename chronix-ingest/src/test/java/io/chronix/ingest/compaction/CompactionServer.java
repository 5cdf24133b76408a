package io.chronix.ingest.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * A server for tests that run a {@link Compactor} of their own against its collection: chunks of
 * 100 points (records under 50 are small), no scheduled compaction, and Solr's update handler open
 * to the compactor's client.
 */
final class CompactionServer {

  private static final HttpClient HTTP = TestHttp.CLIENT;

  private CompactionServer() {}

  static ChronixServer start(Path dataDir) throws Exception {
    return new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("solr.openAdminHandlers", "true") // the compactor under test writes through Solr's update handler
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "100").with("compaction.interval", "0")).start();
  }

  /**
   * A client to the server's collection: over HTTP, or the embedded node's own, which the server's
   * compactor uses (and which reads and writes in the caller's thread).
   */
  static SolrClient client(ChronixServer server, boolean embedded) {
    return embedded ? new EmbeddedSolrServer(server.embeddedCores().orElseThrow(), "chronix")
        : new Http2SolrClient.Builder(server.solrUrl()).build();
  }

  /**
   * {@link Compactor.Sizes#walked} that has every batch's range of ids walked, or every series
   * asked on its own.
   */
  static int walked(boolean walked) {
    return walked ? Integer.MAX_VALUE : 0;
  }

  /** Writes the lines and flushes them: one record per series. */
  static void writeRecords(ChronixServer server, String precision, String lines) throws Exception {
    assertEquals(204, post(server.baseUrl() + "/write?precision=" + precision, lines));
    assertEquals(204, post(server.baseUrl() + "/flush", ""));
  }

  private static int post(String url, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
