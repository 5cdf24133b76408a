package io.chronix.ingest.store;

import io.chronix.core.record.Record;
import io.chronix.core.record.WriteOrderClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;

/**
 * Writes records to the collection: through SolrJ to an external node or SolrCloud, in this
 * thread to the embedded node ({@link InProcessUpdates}).
 */
public final class RecordStore {

  /** Written records become searchable within this time even without an explicit commit. */
  private static final int COMMIT_WITHIN_MS = 1000;
  /**
   * How long written records may stay invisible to searches: commitWithin, plus room for a busy
   * node to open its new searcher.
   */
  public static final Duration SEARCH_LAG = Duration.ofMillis(3L * COMMIT_WITHIN_MS);

  private final SolrClient client;
  private final String collection;
  private final WriteOrderClock writeOrder = new WriteOrderClock();

  private final java.util.List<String> alsoCommitted = new java.util.concurrent.CopyOnWriteArrayList<>();

  public RecordStore(SolrClient client, String collection) {
    this.client = client;
    this.collection = collection;
  }

  /** @return each record's write order, as stored with it */
  public long[] write(List<Record> records) throws IOException {
    long[] orders = new long[records.size()];
    if (records.isEmpty()) {
      return orders;
    }
    List<SolrInputDocument> documents = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      orders[i] = writeOrder.next();
      documents.add(RecordDocuments.toDocument(records.get(i), orders[i]));
    }
    if (client instanceof EmbeddedSolrServer embedded) {
      InProcessUpdates.add(embedded, collection, documents, COMMIT_WITHIN_MS);
      return orders;
    }
    try {
      client.add(collection, documents, COMMIT_WITHIN_MS);
    } catch (SolrServerException e) {
      throw new IOException("Solr refused " + records.size() + " records: " + e.getMessage(), e);
    }
    return orders;
  }

  /** Makes everything written so far durable in the index and visible to searches. */
  public void commit() throws IOException {
    try {
      client.commit(collection, true, true);
      for (String core : alsoCommitted) {
        client.commit(core, true, true);
      }
    } catch (SolrServerException e) {
      throw new IOException("Solr commit failed: " + e.getMessage(), e);
    }
  }

  /** Another core written along with the records (the rollup tiers): committed with them. */
  public void commitAlso(String core) {
    alsoCommitted.add(core);
  }

  /**
   * Makes everything written so far durable in the index without opening a new searcher (what
   * is written is searchable within {@link #SEARCH_LAG} anyway): enough for the log to let go.
   */
  public void makeDurable() throws IOException {
    UpdateRequest commit = new UpdateRequest();
    commit.setAction(UpdateRequest.ACTION.COMMIT, true, true);
    commit.setParam("openSearcher", "false");
    try {
      commit.process(client, collection);
    } catch (SolrServerException e) {
      throw new IOException("Solr commit failed: " + e.getMessage(), e);
    }
  }

  public SolrClient client() {
    return client;
  }
}
