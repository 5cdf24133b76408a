package io.chronix.ingest.cluster;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live ingest nodes of a collection, as ZooKeeper knows them: each node registers an
 * ephemeral znode named after its base URL under {@code /chronix/<collection>/ingest-nodes}
 * (in the cluster's chroot), which ZooKeeper removes when the node's session ends (a clean stop,
 * or the session timeout after a crash). Every node watches the directory and hands each new
 * member list to a listener.
 *
 * <p>The registration lives as long as the ZooKeeper session. This class owns its own client so
 * that it learns when a session expired (ZooKeeper out of reach longer than the session timeout:
 * the entry is gone and the other nodes took this node's series) and registers again in the new
 * session; until then the other nodes do not route to this one, which still stores whatever
 * reaches it directly.
 */
public final class IngestNodes implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IngestNodes.class);

  private final SolrZkClient zk;
  private final String directory;
  private final String self;
  private final String selfNode;
  private final Consumer<List<String>> onChange;
  private volatile List<String> members;
  private volatile boolean closed;
  private final AtomicInteger registrations = new AtomicInteger();

  private IngestNodes(SolrZkClient zk, String directory, String self, Consumer<List<String>> onChange) {
    this.zk = zk;
    this.directory = directory;
    this.self = self;
    this.selfNode = directory + "/" + URLEncoder.encode(self, StandardCharsets.UTF_8);
    this.onChange = onChange;
    this.members = List.of(self);
  }

  /**
   * Registers this node and starts watching the others.
   *
   * @param self this node's id: the base URL other nodes forward to
   * @param onChange called with the new member list (this node included) whenever it changes
   */
  public static IngestNodes join(String zkAddress, Duration sessionTimeout, String collection, String self,
      Consumer<List<String>> onChange) throws KeeperException, InterruptedException {
    AtomicReference<IngestNodes> joined = new AtomicReference<>();
    SolrZkClient zk = new SolrZkClient.Builder().withUrl(zkAddress)
        .withTimeout((int) Math.min(Integer.MAX_VALUE, sessionTimeout.toMillis()), TimeUnit.MILLISECONDS)
        .withReconnectListener(() -> {
          IngestNodes nodes = joined.get();
          if (nodes != null) {
            nodes.registerAgain();
          }
        }).build();
    IngestNodes nodes = new IngestNodes(zk, "/chronix/" + collection + "/ingest-nodes", self, onChange);
    try {
      nodes.register();
    } catch (KeeperException | InterruptedException | RuntimeException e) {
      zk.close();
      throw e;
    }
    joined.set(nodes);
    return nodes;
  }

  private void register() throws KeeperException, InterruptedException {
    zk.makePath(directory, false, true);
    try {
      // a node restarted within its old session's timeout finds its old entry: replace it
      zk.delete(selfNode, -1, true);
    } catch (KeeperException.NoNodeException fresh) {
      // the usual case
    }
    zk.create(selfNode, self.getBytes(StandardCharsets.UTF_8), CreateMode.EPHEMERAL, true);
    refresh();
  }

  /** After a session expired: the ephemeral entry and the watch went with it. */
  private void registerAgain() {
    if (closed) {
      return;
    }
    try {
      register();
      registrations.incrementAndGet();
      LOG.info("ingest node {} registered again after its ZooKeeper session expired", self);
    } catch (KeeperException | RuntimeException e) {
      LOG.error("ingest node {}: cannot register again after its ZooKeeper session expired; the other nodes do "
          + "not route to it until it is restarted: {}", self, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** How often this node registered again after a session expired (tests, status). */
  public int reRegistrations() {
    return registrations.get();
  }

  /** The current ZooKeeper session: tests expire it. */
  long sessionId() {
    return zk.getZooKeeper().getSessionId();
  }

  public List<String> members() {
    return members;
  }

  private void refresh() throws KeeperException, InterruptedException {
    if (closed) {
      return;
    }
    Watcher watcher = event -> {
      if (event.getType() == Watcher.Event.EventType.NodeChildrenChanged) {
        try {
          refresh();
        } catch (KeeperException | RuntimeException e) {
          LOG.warn("ingest nodes: cannot read the member list, keeping {}: {}", members, e.toString());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    List<String> found = new ArrayList<>();
    for (String child : zk.getChildren(directory, watcher, true)) {
      found.add(URLDecoder.decode(child, StandardCharsets.UTF_8));
    }
    if (!found.contains(self)) {
      found.add(self); // registered, or about to be again: this node writes what it is given
    }
    found.sort(null);
    if (!found.equals(members)) {
      LOG.info("ingest nodes of this collection: {}", found);
      members = List.copyOf(found);
      onChange.accept(members);
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    try {
      zk.delete(selfNode, -1, true);
    } catch (KeeperException e) {
      // gone already, or ZooKeeper unreachable: the session's end removes it
    } finally {
      zk.close();
    }
  }
}
