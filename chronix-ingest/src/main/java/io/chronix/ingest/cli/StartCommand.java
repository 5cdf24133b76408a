package io.chronix.ingest.cli;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.solr.EmbeddedSolrNode;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "start", description = "Start the server (embedded Solr, data in ./data) in the foreground; "
    + "Ctrl-C or SIGTERM stop it cleanly.")
final class StartCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    ServerConfig config = server.config();
    if (config.solrMode() == ServerConfig.SolrMode.EMBEDDED) {
      // a fresh data directory's key pair for the node is made from here on, on a thread of its own
      EmbeddedSolrNode.startMakingKeys(config.dataDir());
    }
    ChronixServer running = new ChronixServer(config).start();
    CountDownLatch stopped = new CountDownLatch(1);
    // SIGTERM and Ctrl-C run this hook: buffered points are written before the JVM exits
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        running.close();
      } catch (Exception e) {
        System.err.println("chronix: clean stop failed: " + e);
      } finally {
        stopped.countDown();
      }
    }, "chronix-shutdown"));
    System.out.println("Chronix server ready at " + running.baseUrl() + " (Solr at " + running.solrUrl() + ")");
    stopped.await();
    return 0;
  }
}
