package io.chronix.ingest.rollup;

import io.chronix.core.record.Record;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.rollup.RollupBlob;
import io.chronix.core.rollup.RollupStats;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.common.SolrInputDocument;

/**
 * Writes the rollup records of finished records into the rollup core: per record and tier one
 * document with the record's fields (so the same queries select it), the id {@code <record
 * id>~<tier>}, the tier in {@code _tier}, and the per-interval statistics of the record's points
 * as its data ({@link RollupBlob}). A record rewritten under the same id (compaction, delete)
 * rewrites its rollups; one deleted takes them along ({@link #deleted}).
 */
public final class RollupStore {

  /** The field naming a rollup record's tier. */
  public static final String TIER = "_tier";
  private static final int COMMIT_WITHIN_MS = 1000;

  private final SolrClient client;
  private final String core;
  private final RollupTiers tiers;

  public RollupStore(SolrClient client, String core, RollupTiers tiers) {
    this.client = client;
    this.core = core;
    this.tiers = tiers;
  }

  /** The rollups of records and the points each holds (same order); strings and booleans have none. */
  public void written(List<Record> records, List<Points> points, long[] writeOrders) throws IOException {
    List<SolrInputDocument> documents = new ArrayList<>();
    for (int r = 0; r < records.size(); r++) {
      Points numbers = points.get(r);
      if (numbers.type() != ValueType.DOUBLE && numbers.type() != ValueType.LONG) {
        continue;
      }
      for (Duration interval : tiers.intervals()) {
        SolrInputDocument document = new SolrInputDocument();
        for (Map.Entry<String, Object> field : RecordSchema.fields(records.get(r), writeOrders[r]).entrySet()) {
          document.setField(field.getKey(), field.getValue());
        }
        String label = RollupTiers.label(interval);
        document.setField(RecordFields.ID, id(records.get(r).id(), label));
        document.setField(TIER, label);
        document.setField(RecordFields.DATA, RollupBlob.encode(RollupStats.of(numbers, interval.toNanos())));
        documents.add(document);
      }
    }
    if (documents.isEmpty()) {
      return;
    }
    try {
      client.add(core, documents, COMMIT_WITHIN_MS);
    } catch (SolrServerException e) {
      throw new IOException("Solr refused " + documents.size() + " rollup records: " + e.getMessage(), e);
    }
  }

  /** Records deleted: their rollups go too. */
  public void deleted(List<String> recordIds) throws IOException {
    if (recordIds.isEmpty()) {
      return;
    }
    List<String> ids = new ArrayList<>();
    for (String recordId : recordIds) {
      for (Duration interval : tiers.intervals()) {
        ids.add(id(recordId, RollupTiers.label(interval)));
      }
    }
    try {
      client.deleteById(core, ids, COMMIT_WITHIN_MS);
    } catch (SolrServerException e) {
      throw new IOException("Solr refused to delete " + ids.size() + " rollup records: " + e.getMessage(), e);
    }
  }

  static String id(String recordId, String tier) {
    return recordId + "~" + tier;
  }
}
