package io.chronix.ingest.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention in the background, with a clock the test moves: whole records go once their last
 * point is past their rule's horizon, none is split, series under another rule stay; and a server
 * with a retention refuses points older than it at ingestion.
 */
class RetentionEnforcerTest {

  private static final long DAY = 86_400_000L;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path dir;

  @Test
  void recordsGoWhenTheirLastPointPassesTheHorizon() throws Exception {
    long now = System.currentTimeMillis();
    // the enforcer runs here against the server's Solr over HTTP: its update handler must be reachable
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("solr.openAdminHandlers", "true")).start();
        Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      // one record a day for days 10..1 before now, of a short-lived and a kept series
      for (int day = 10; day >= 1; day--) {
        long t = now - day * DAY;
        post(server, "/write?precision=ms", "tmp_load,host=a value=" + day + " " + t + "\n"
            + "tmp_load,host=a value=" + day + " " + (t + DAY / 2) + "\n"
            + "cpu,host=a value=" + day + " " + t + "\n");
        post(server, "/flush", "");
      }
      assertEquals(20, records(solr));
      AtomicLong clock = new AtomicLong(now);
      RetentionEnforcer enforcer = new RetentionEnforcer(solr, "chronix",
          RetentionRules.parse("forever", "tmp_*=3d"), new Compactor(solr, "chronix", 8192,
              ServerConfig.defaults().codec()), clock::get);
      java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
      enforcer.reportingTo(new io.chronix.analysis.promql.engine.PointChanges() {
        @Override
        public void changedFrom(long millis) {
          throw new AssertionError("retention cuts from the start of time");
        }

        @Override
        public void changedAll() {
          told.incrementAndGet();
        }
      });

      // records of days 10..4 end before now - 3d; day 3's record ends at now - 2.5d: kept whole
      assertEquals(7, enforcer.enforce().records());
      assertEquals(1, told.get(), "answers kept from the deleted points are let go");
      assertEquals(3, records(solr, "tmp_load"));
      assertEquals(10, records(solr, "cpu"), "another rule's series stay");
      assertEquals(0, enforcer.enforce().records(), "nothing more until time passes");
      assertEquals(1, told.get(), "nothing deleted, nothing told");

      clock.addAndGet(2 * DAY);
      assertEquals(2, enforcer.enforce().records(), "days 3 and 2 are past the horizon now");
      assertEquals(1, records(solr, "tmp_load"));
    }
  }

  @Test
  void aServerRefusesPointsOlderThanItsRetention() throws Exception {
    long now = System.currentTimeMillis();
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("retention.default", "7d")).start()) {
      HttpResponse<String> old = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write?precision=ms"))
          .POST(HttpRequest.BodyPublishers.ofString("cpu value=1 " + (now - 8 * DAY) + "\ncpu value=2 " + now + "\n"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(400, old.statusCode(), old.body());
      assertTrue(old.body().contains("1 point(s) refused as older than their retention, 1 stored")
          && old.body().contains("retention.default (PT168H)"), old.body());
      // Graphite over TCP: the old line is refused, the connection stays and the next line is stored
      try (java.net.Socket graphite = new java.net.Socket("127.0.0.1", server.graphiteTcpPort());
          java.io.Writer lines = new java.io.OutputStreamWriter(graphite.getOutputStream(),
              java.nio.charset.StandardCharsets.UTF_8)) {
        lines.write("disk 1 " + (now - 8 * DAY) / 1000 + "\n");
        lines.flush();
        Thread.sleep(200);
        lines.write("disk 2 " + now / 1000 + "\n");
        lines.flush();
      }
      try (Http2SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
          post(server, "/flush", "");
          if (solr.query("chronix", new SolrQuery("name:disk").setRows(0)).getResults().getNumFound() > 0) {
            break;
          }
          assertTrue(System.nanoTime() < deadline, "the graphite line after the refused one was not stored");
          Thread.sleep(100);
        }
        assertEquals(1, solr.query("chronix", new SolrQuery("name:cpu").setRows(0)).getResults().getNumFound());
      }
    }
  }

  private static void post(ChronixServer server, String path, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(204, response.statusCode(), path + ": " + response.body());
  }

  private static long records(Http2SolrClient solr) throws Exception {
    return solr.query("chronix", new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
  }

  private static long records(Http2SolrClient solr, String name) throws Exception {
    return solr.query("chronix", new SolrQuery("name:" + name).setRows(0)).getResults().getNumFound();
  }
}
