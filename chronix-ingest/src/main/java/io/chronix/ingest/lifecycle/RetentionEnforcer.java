package io.chronix.ingest.lifecycle;

import io.chronix.analysis.promql.engine.PointChanges;
import io.chronix.core.record.RecordFields;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.rollup.RollupStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.util.ClientUtils;

/**
 * Deletes the records past their series' retention: a record goes when its last point ({@code
 * end}) is older than the horizon of the rule its name falls under; records are never split, so a
 * record reaching back past the horizon stays until all of it has aged out. Runs in the background
 * every {@code retention.checkInterval}, under the compactor's lock (a compaction must not write
 * back what was just deleted). Rollup records go with their records, or after the retention of
 * their tier where it has one ({@link RollupRetention}).
 */
public final class RetentionEnforcer {

  private PointChanges changes = PointChanges.NONE;

  /** What a run deleted: records, and rollup records (with their records or past their tier's retention). */
  public record Result(long records, long rollups) {}

  private final SolrClient client;
  private final String collection;
  private final RetentionRules rules;
  private final Compactor compactor;
  private final LongSupplier clockMillis;
  /** The rollup core, whose records carry their records' fields. Null: none. */
  private String rollupCore;
  private RollupRetention rollupRetention;

  /**
   * Deletes rollup records from this core too: those of tiers that go with their records with
   * them, those of tiers with a retention of their own when past it.
   */
  /** Tells {@code changes} when records were deleted (any time before the cut-offs may have changed). */
  public RetentionEnforcer reportingTo(PointChanges changes) {
    this.changes = changes;
    return this;
  }

  public RetentionEnforcer alsoIn(String core, RollupRetention retention) {
    this.rollupCore = core;
    this.rollupRetention = retention;
    return this;
  }

  public RetentionEnforcer(SolrClient client, String collection, RetentionRules rules, Compactor compactor,
      LongSupplier clockMillis) {
    this.client = client;
    this.collection = collection;
    this.rules = rules;
    this.compactor = compactor;
    this.clockMillis = clockMillis;
  }

  public Result enforce() throws IOException {
    long now = clockMillis.getAsLong();
    long records = 0;
    long rollups = 0;
    List<String> earlierPatterns = new ArrayList<>();
    synchronized (compactor) {
      try {
        String followers = rollupCore == null ? null : tierFilter(rollupRetention.followingRecords());
        for (RetentionRules.Rule rule : rules.all()) {
          if (rule.period() != null) {
            String query = selection(rule, earlierPatterns, now - rule.period().toMillis());
            records += deleteAll(collection, query);
            if (followers != null) {
              rollups += deleteAll(rollupCore, "(" + query + ") AND " + followers);
            }
          }
          earlierPatterns.add(rule.pattern());
        }
        if (rollupCore != null) {
          for (RollupRetention.Tier tier : rollupRetention.tiers()) {
            if (!tier.followsRecords() && tier.period() != null) {
              rollups += deleteAll(rollupCore, tierFilter(List.of(tier.label())) + " AND " + RecordFields.END
                  + ":[* TO " + (now - tier.period().toMillis() - 1) + "]");
            }
          }
        }
        if (records > 0) {
          try {
            client.commit(collection);
          } finally {
            changes.changedAll();
          }
        }
        if (rollups > 0) {
          client.commit(rollupCore);
        }
      } catch (SolrServerException | RuntimeException e) {
        throw new IOException("retention: deleting old records failed: " + e.getMessage(), e);
      }
    }
    return new Result(records, rollups);
  }

  /** Deletes what the query selects in the core; returns how many documents that was. */
  private long deleteAll(String core, String query) throws IOException, SolrServerException {
    long found = client.query(core, new SolrQuery(query).setRows(0)).getResults().getNumFound();
    if (found > 0) {
      client.deleteByQuery(core, query);
    }
    return found;
  }

  /** Rollup records of these tiers; null for none. */
  private static String tierFilter(List<String> labels) {
    if (labels.isEmpty()) {
      return null;
    }
    List<String> terms = new ArrayList<>();
    for (String label : labels) {
      terms.add(ClientUtils.escapeQueryChars(label));
    }
    return RollupStore.TIER + ":(" + String.join(" OR ", terms) + ")";
  }

  /** Records of this rule's names (and of no earlier rule's) whose end lies before the horizon. */
  static String selection(RetentionRules.Rule rule, List<String> earlierPatterns, long horizonMillis) {
    StringBuilder query = new StringBuilder(RecordFields.END + ":[* TO " + (horizonMillis - 1) + "]");
    if (!rule.pattern().equals("*")) {
      query.append(" AND ").append(RecordFields.NAME).append(':').append(wildcard(rule.pattern()));
    }
    for (String earlier : earlierPatterns) {
      query.append(" -").append(RecordFields.NAME).append(':').append(wildcard(earlier));
    }
    return query.toString();
  }

  /** A glob as a Solr wildcard term: {@code *} and {@code ?} stay, everything else is literal. */
  static String wildcard(String glob) {
    StringBuilder term = new StringBuilder();
    for (char c : glob.toCharArray()) {
      term.append(c == '*' || c == '?' ? String.valueOf(c) : ClientUtils.escapeQueryChars(String.valueOf(c)));
    }
    return term.toString();
  }
}
