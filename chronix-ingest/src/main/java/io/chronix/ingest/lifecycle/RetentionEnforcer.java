package io.chronix.ingest.lifecycle;

import io.chronix.core.record.RecordFields;
import io.chronix.ingest.compaction.Compactor;
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
 * back what was just deleted).
 */
public final class RetentionEnforcer {

  /** What a run deleted. */
  public record Result(long records) {}

  private final SolrClient client;
  private final String collection;
  private final RetentionRules rules;
  private final Compactor compactor;
  private final LongSupplier clockMillis;
  /** The rollup core, whose records carry their records' fields: they go with them. Null: none. */
  private String rollupCore;

  /** Deletes the same records' rollups from this core too (null: none). */
  public RetentionEnforcer alsoIn(String core) {
    this.rollupCore = core;
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
    long deleted = 0;
    List<String> earlierPatterns = new ArrayList<>();
    synchronized (compactor) {
      try {
        for (RetentionRules.Rule rule : rules.all()) {
          if (rule.period() != null) {
            String query = selection(rule, earlierPatterns, now - rule.period().toMillis());
            long found = client.query(collection, new SolrQuery(query).setRows(0)).getResults().getNumFound();
            if (found > 0) {
              client.deleteByQuery(collection, query);
              deleted += found;
            }
            if (rollupCore != null) {
              client.deleteByQuery(rollupCore, query);
            }
          }
          earlierPatterns.add(rule.pattern());
        }
        if (deleted > 0) {
          client.commit(collection);
          if (rollupCore != null) {
            client.commit(rollupCore);
          }
        }
      } catch (SolrServerException | RuntimeException e) {
        throw new IOException("retention: deleting old records failed: " + e.getMessage(), e);
      }
    }
    return new Result(deleted);
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
