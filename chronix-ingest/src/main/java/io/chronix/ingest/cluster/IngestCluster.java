package io.chronix.ingest.cluster;

import io.chronix.ingest.Storage;
import io.chronix.ingest.pipeline.BatchWriter;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node as one of the collection's ingest nodes: registered in ZooKeeper ({@link
 * IngestNodes}), writing through the {@link OwnerRouter}. When the member list changes, series
 * change owners: this node writes all its buffers as records, so that a series it no longer owns
 * is not left half in its buffers while its new owner buffers the rest.
 */
public final class IngestCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IngestCluster.class);

  private final OwnerRouter router;
  private final ExecutorService handOver = Executors.newSingleThreadExecutor(runnable -> {
    Thread thread = new Thread(runnable, "chronix-hand-over");
    thread.setDaemon(true);
    return thread;
  });
  private IngestNodes nodes;

  private IngestCluster(OwnerRouter router) {
    this.router = router;
  }

  /**
   * @param self this node's base URL as the other nodes reach it
   * @param token bearer token with the write role sent with forwarded points; empty without auth
   */
  public static IngestCluster join(String zkAddress, Duration sessionTimeout, String collection, String self,
      String token, Storage storage) throws IOException {
    IngestCluster cluster = new IngestCluster(new OwnerRouter(self, storage.pipeline(), new BatchForwarder(token)));
    try {
      cluster.nodes = IngestNodes.join(zkAddress, sessionTimeout, collection, self,
          members -> cluster.changed(members, storage));
    } catch (KeeperException e) {
      cluster.handOver.shutdownNow();
      throw new IOException("cannot register ingest node " + self + " in ZooKeeper: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cluster.handOver.shutdownNow();
      throw new IOException("interrupted while registering ingest node " + self, e);
    }
    return cluster;
  }

  private void changed(List<String> members, Storage storage) {
    router.membersChanged(members);
    handOver.execute(() -> {
      try {
        storage.buffers().flushAll();
      } catch (IOException | RuntimeException e) {
        LOG.warn("ingest nodes changed: writing the buffers failed, they are written later: {}", e.toString());
      }
    });
  }

  /** Where every protocol writes: the router in front of this node's own pipeline. */
  public BatchWriter writer() {
    return router;
  }

  public List<String> members() {
    return nodes.members();
  }

  /** The registration in ZooKeeper. */
  public IngestNodes nodes() {
    return nodes;
  }

  @Override
  public void close() throws InterruptedException {
    if (nodes != null) {
      nodes.close();
    }
    handOver.shutdown();
    handOver.awaitTermination(30, TimeUnit.SECONDS);
  }
}
