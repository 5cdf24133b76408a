package io.chronix.ingest.solr;

import io.chronix.core.record.RecordFields;
import org.apache.solr.client.solrj.SolrQuery;

/**
 * The filter for records that overlap a span of time, as the server's own readers ask for them
 * (compaction, a replay's filter, deletes, rollups' clean-up). Kept out of Solr's filter cache:
 * their spans differ from query to query, and each cached span is a set over the whole index
 * (docs/benchmarks.md, "Compaction in a sparse index").
 */
public final class RecordSpans {

  private RecordSpans() {}

  /** Adds the filter for records overlapping {@code [fromMillis, toMillis]}, both ends included. */
  public static SolrQuery overlapping(SolrQuery query, long fromMillis, long toMillis) {
    return query.addFilterQuery("{!cache=false}" + RecordFields.END + ":[" + fromMillis + " TO *]",
        "{!cache=false}" + RecordFields.START + ":[* TO " + toMillis + "]");
  }
}
