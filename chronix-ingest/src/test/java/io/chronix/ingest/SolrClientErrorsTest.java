package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.solr.LogEvents;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A request the embedded node refuses as the client's doing (its cf, its points over the limit,
 * through Solr's route or PromQL's) is one line of the server's log at info, not an error with its
 * stack on the status page; the store's own failures still are errors there.
 */
class SolrClientErrorsTest {

  @TempDir Path dataDir;

  @Test
  void refusalsAreALineEachAndNotTheOperatorsErrors() throws Exception {
    LogEvents events = new LogEvents();
    System.setProperty("chronix.maxDecodedPoints", "100");
    ChronixServer server;
    try {
      // without the start's warm-up: a limit of 100 points refuses its queries too, one more line
      // (StartWarmUpTest.aQueryTheLimitsRefuseEndsTheWarmUpCleanly)
      server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
          .with("startup.warmUp", "false")).start();
    } finally {
      System.clearProperty("chronix.maxDecodedPoints");
    }
    try (server) {
      StringBuilder lines = new StringBuilder();
      for (int minute = 0; minute < 120; minute++) {
        lines.append("cpu,host=a value=").append(minute).append(' ').append(minute * 60_000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

      HttpResponse<String> unknown = solr(server, "name:cpu", "&cf=" + encode("metric{nonsense}"));
      assertEquals(400, unknown.statusCode(), unknown.body());
      HttpResponse<String> tooMany = solr(server, "name:cpu", "&fl=dataAsJson");
      assertEquals(400, tooMany.statusCode(), tooMany.body());
      HttpResponse<String> promql = TestHttp.get(server.baseUrl()
          + "/api/v1/query_range?query=cpu&start=0&end=7140&step=60");
      assertEquals(422, promql.statusCode(), promql.body());

      List<String> refusals = events.messages("io.chronix.ingest.solr.SolrClientErrors", Level.INFO);
      assertEquals(3, refusals.size(), refusals.toString());
      assertTrue(refusals.get(0).startsWith("request refused with 400: ")
          && refusals.get(0).contains("unknown function 'nonsense'"), refusals.get(0));
      assertTrue(refusals.get(1).contains("more than 100 points (chronix.maxDecodedPoints)"), refusals.get(1));
      assertTrue(refusals.get(2).contains("more than 100 points (chronix.maxDecodedPoints)"), refusals.get(2));
      assertTrue(events.messages("org.apache.solr.handler.RequestHandlerBase", Level.ERROR).isEmpty(),
          "Solr's own line with its stack is left out");

      // the operator's status page lists errors, and these are not
      LoggerFactory.getLogger("org.apache.solr.handler.RequestHandlerBase").error("Server exception",
          new IllegalStateException("the store's own failure"));
      String problems = TestHttp.JSON.readTree(TestHttp.get(server.baseUrl() + "/api/v1/status/chronix").body())
          .get("problems").toString();
      assertTrue(problems.contains("the store's own failure"), problems);
      assertFalse(problems.contains("Client exception") || problems.contains("nonsense")
          || problems.contains("maxDecodedPoints"), problems);
    } finally {
      events.close();
    }
    // after the server, Solr's logger is as it was
    LogEvents after = new LogEvents();
    try {
      LoggerFactory.getLogger("org.apache.solr.handler.RequestHandlerBase").error("Client exception",
          new IllegalArgumentException("nobody filters this"));
      assertEquals(1, after.messages("org.apache.solr.handler.RequestHandlerBase", Level.ERROR).size());
    } finally {
      after.close();
    }
  }

  private static HttpResponse<String> solr(ChronixServer server, String q, String extra) throws Exception {
    return TestHttp.get(server.solrUrl() + "/chronix/query?q=" + encode(q) + extra);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
