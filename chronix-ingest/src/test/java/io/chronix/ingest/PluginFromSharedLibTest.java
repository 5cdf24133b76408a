package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.cloud.SolrZkClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented route for the plugin, done for real: a Solr node without Chronix on its class
 * path gets the plugin's jar and {@code target/solr-lib} in its {@code solr.sharedLib} directory,
 * and an ingest node in SolrCloud mode creates the collection on it and queries it with every kind
 * of Chronix request (functions, the ANALYZE filter, the raw points writer).
 */
class PluginFromSharedLibTest {

  private static final Path PLUGIN_TARGET = Path.of("..", "chronix-solr-plugin", "target");
  private static final long T0 = 1_700_000_000_000L;

  @Test
  void aSolrNodeLoadsThePluginFromItsSharedLib(@TempDir Path workDir) throws Exception {
    Path sharedLib = sharedLib(workDir.resolve("chronix-lib"));
    // only ZooKeeper in this JVM: the cluster's one Solr node is the other process
    MiniSolrCloudCluster zk = new MiniSolrCloudCluster.Builder(0, workDir.resolve("cloud"))
        .withTraceIdGenerationDisabled().build();
    // the node reads the solr.xml of its own home (with sharedLib), not the test cluster's in ZooKeeper
    try (SolrZkClient client = new SolrZkClient.Builder().withUrl(zk.getZkServer().getZkAddress())
        .withTimeout(30, TimeUnit.SECONDS).build()) {
      client.delete("/solr.xml", -1, true);
    }
    try (SolrNodeProcess solr = SolrNodeProcess.start(workDir.resolve("solr-home"),
        zk.getZkServer().getZkAddress(), sharedLib)) {
      try {
        ingestAndQuery(workDir, zk, solr);
      } catch (Exception | AssertionError e) {
        throw new AssertionError(e + "\nthe Solr node's output:\n" + solr.output(), e);
      }
    } finally {
      zk.shutdown();
    }
  }

  private static void ingestAndQuery(Path workDir, MiniSolrCloudCluster zk, SolrNodeProcess solr) throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", workDir.resolve("ingest").toString())
        .with("solr.zkHost", zk.getZkServer().getZkAddress())
        .with("solr.cloud.shards", "1").with("solr.cloud.replicationFactor", "1")).start()) {
      assertTrue(solr.output().contains("the plugin is not on the class path"), solr.output());
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 100; i++) {
        lines.append("cpu,host=a value=").append(i == 50 ? 1000 : i % 10).append(' ').append(T0 + i * 1000L)
            .append('\n');
      }
      HttpResponse<String> write = TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false);
      assertEquals(204, write.statusCode(), write.body());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

      // straight at the Solr node that loaded the jars, and through the ingest node
      for (String base : new String[] {solr.baseUrl(), server.baseUrl() + "/solr"}) {
        JsonNode functions = TestHttp.query(base, "name:cpu", "&cf=" + encode("metric{max;count}") + "&fl=host")
            .at("/response/docs/0/functions");
        assertEquals(1000.0, functions.at("/0/value").asDouble(), base + ": " + functions);
        assertEquals(100, functions.at("/1/value").asInt(), base + ": " + functions);
        JsonNode points = TestHttp.query(base, "name:cpu", "&fl=points").at("/response/docs/0/points");
        assertEquals(100, points.at("/timestamps").size(), base + ": " + points);
        JsonNode outlier = TestHttp.query(base, "name:cpu", "&fq=" + encode("{!ANALYZE detect=outlier}")
            + "&fl=host").at("/response/numFound");
        assertEquals(1, outlier.asInt(), base + ": the series with the spike");
      }
    }
  }

  private static String encode(String parameter) {
    return URLEncoder.encode(parameter, StandardCharsets.UTF_8);
  }

  /** What docker/Dockerfile.solr puts in /opt/chronix-lib: the plugin's jar and its solr-lib. */
  private static Path sharedLib(Path dir) throws IOException {
    Path solrLib = PLUGIN_TARGET.resolve("solr-lib");
    String hint = "build the plugin first (mvn package -pl chronix-solr-plugin -am, or the README's test command)";
    SolrNodeProcess.requireDirectory(solrLib, hint);
    Files.createDirectories(dir);
    int plugins = 0;
    try (Stream<Path> jars = Stream.concat(Files.list(PLUGIN_TARGET), Files.list(solrLib))) {
      for (Path jar : (Iterable<Path>) jars::iterator) {
        String name = jar.getFileName().toString();
        if (name.endsWith(".jar") && !name.endsWith("-tests.jar") && !name.endsWith("-sources.jar")) {
          Files.copy(jar, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
          plugins += name.startsWith("chronix-solr-plugin") ? 1 : 0;
        }
      }
    }
    if (plugins != 1) {
      throw new IOException(PLUGIN_TARGET + " holds " + plugins + " plugin jars, expected one: " + hint);
    }
    return dir;
  }
}
