package io.chronix.ingest.solr;

import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.impl.ZkClientClusterStateProvider;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.util.ContentStreamBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records' collection in a SolrCloud cluster, reached through its ZooKeeper: a client that
 * sends updates to the shard leaders and queries to live replicas, and, where the cluster lacks
 * them, the configset (uploaded from the server jar under the collection's name) and the
 * collection itself (shards, replication factor and router from the configuration).
 */
public final class CloudCollection {

  private static final Logger LOG = LoggerFactory.getLogger(CloudCollection.class);

  private CloudCollection() {}

  /**
   * A client of the cluster at {@code solr.zkHost} whose collection {@code solr.collection}
   * exists and is active.
   *
   * @throws IllegalStateException when ZooKeeper cannot be reached or the collection does not
   *     become active in time, naming which
   */
  public static CloudSolrClient connect(ServerConfig config) throws IOException, SolrServerException,
      InterruptedException {
    ZkAddress zk = ZkAddress.parse(config.zkHost());
    String collection = config.collection();
    String router = config.cloudRouter();
    int waitMillis = (int) Math.min(Integer.MAX_VALUE, config.cloudWaitTimeout().toMillis());
    CloudSolrClient client = (CloudSolrClient) new CloudSolrClient.Builder(zk.hosts(), zk.chroot())
        .withZkConnectTimeout(waitMillis, TimeUnit.MILLISECONDS)
        .withZkClientTimeout((int) Math.min(Integer.MAX_VALUE, config.zkSessionTimeout().toMillis()),
            TimeUnit.MILLISECONDS).build();
    try {
      try {
        client.connect(config.cloudWaitTimeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | RuntimeException e) {
        throw new IllegalStateException("cannot reach the SolrCloud cluster through ZooKeeper at " + zk + " within "
            + config.cloudWaitTimeout() + " (solr.cloud.waitTimeout): " + e.getMessage(), e);
      }
      if (!CollectionAdminRequest.listCollections(client).contains(collection)) {
        ensureConfigSet(client, collection);
        create(client, config, collection, router);
      }
      return client;
    } catch (IOException | SolrServerException | InterruptedException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static void ensureConfigSet(CloudSolrClient client, String name) throws IOException, SolrServerException {
    List<String> configSets = new ConfigSetAdminRequest.List().process(client).getConfigSets();
    if (configSets.contains(name)) {
      LOG.info("SolrCloud: using the cluster's configset {} for the new collection", name);
      return;
    }
    ContentStreamBase.ByteArrayStream zip = new ContentStreamBase.ByteArrayStream(PackagedConfigSet.zip(),
        name + ".zip", "application/zip");
    try {
      new ConfigSetAdminRequest.Upload().setConfigSetName(name).setUploadStream(zip).process(client);
    } catch (RuntimeException | SolrServerException | IOException e) {
      // another ingest node starting at the same time may have uploaded it meanwhile
      if (new ConfigSetAdminRequest.List().process(client).getConfigSets().contains(name)) {
        LOG.info("SolrCloud: configset {} was uploaded by another ingest node meanwhile; using it", name);
        return;
      }
      throw e;
    }
    LOG.info("SolrCloud: uploaded the configset {} from the server jar", name);
  }

  private static void create(CloudSolrClient client, ServerConfig config, String collection, String router)
      throws IOException, SolrServerException, InterruptedException {
    int shards = config.cloudShards();
    int replicas = config.cloudReplicationFactor();
    boolean createdHere = true;
    try {
      CollectionAdminRequest.createCollection(collection, collection, shards, replicas).setRouterName(router)
          .process(client);
    } catch (RuntimeException | SolrServerException | IOException e) {
      // another ingest node may have created it meanwhile; anything else is the error it says
      if (!CollectionAdminRequest.listCollections(client).contains(collection)) {
        throw e;
      }
      createdHere = false;
    }
    long timeout = config.cloudWaitTimeout().toMillis();
    try {
      ZkClientClusterStateProvider.from(client).getZkStateReader().waitForState(collection, timeout,
          TimeUnit.MILLISECONDS, (liveNodes, state) -> active(state, liveNodes, shards));
    } catch (TimeoutException e) {
      throw new IllegalStateException("SolrCloud collection " + collection + " did not become active within "
          + config.cloudWaitTimeout() + " (solr.cloud.waitTimeout): are there enough live Solr nodes for "
          + shards + " shards x " + replicas + " replicas, and do they have the Chronix plugin jars?", e);
    }
    if (createdHere) {
      LOG.info("SolrCloud: created collection {} ({} shards x {} replicas, {} router)", collection, shards, replicas,
          router);
    } else {
      LOG.info("SolrCloud: collection {} was created by another ingest node meanwhile; using it", collection);
    }
  }

  private static boolean active(DocCollection state, java.util.Set<String> liveNodes, int shards) {
    if (state == null || state.getActiveSlices().size() < shards) {
      return false;
    }
    for (Replica replica : state.getReplicas()) {
      if (!replica.isActive(liveNodes)) {
        return false;
      }
    }
    return true;
  }
}
