package io.chronix.ingest.cluster;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
  public static IngestNodes join(SolrZkClient zk, String collection, String self, Consumer<List<String>> onChange)
      throws KeeperException, InterruptedException {
    IngestNodes nodes = new IngestNodes(zk, "/chronix/" + collection + "/ingest-nodes", self, onChange);
    zk.makePath(nodes.directory, false, true);
    try {
      // a node restarted within its old session's timeout finds its old entry: replace it
      zk.delete(nodes.selfNode, -1, true);
    } catch (KeeperException.NoNodeException fresh) {
      // the usual case
    }
    zk.create(nodes.selfNode, self.getBytes(StandardCharsets.UTF_8), CreateMode.EPHEMERAL, true);
    nodes.refresh();
    return nodes;
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
    }
  }
}
