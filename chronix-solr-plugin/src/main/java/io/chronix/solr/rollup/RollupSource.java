package io.chronix.solr.rollup;

import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.record.RecordFields;
import io.chronix.core.rollup.RollupBlob;
import io.chronix.core.rollup.RollupStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.common.SolrException;
import org.apache.solr.core.SolrCore;
import org.apache.solr.search.DocIterator;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.util.RefCounted;

/**
 * The rollup core of a collection ({@code <collection>_rollups}, written by the ingest server):
 * which tiers it holds and the statistics of given records in a tier. Holds a searcher of that
 * core until closed.
 */
public final class RollupSource implements AutoCloseable {

  /** The field naming a rollup record's tier. */
  public static final String TIER = "_tier";

  private final SolrCore core;
  private final RefCounted<SolrIndexSearcher> searcher;

  private RollupSource(SolrCore core) {
    this.core = core;
    this.searcher = core.getSearcher();
  }

  /** The rollup core of this core's collection, or null when there is none (no tiers set). */
  public static RollupSource of(SolrCore recordsCore) {
    SolrCore rollups = recordsCore.getCoreContainer().getCore(recordsCore.getName() + "_rollups");
    return rollups == null ? null : new RollupSource(rollups);
  }

  /** The tiers present, finest first. */
  public List<RollupPlan.Tier> tiers() throws IOException {
    Terms terms = MultiTerms.getTerms(searcher.get().getIndexReader(), TIER);
    List<RollupPlan.Tier> tiers = new ArrayList<>();
    if (terms == null) {
      return tiers;
    }
    TermsEnum values = terms.iterator();
    for (BytesRef value = values.next(); value != null; value = values.next()) {
      String label = value.utf8ToString();
      tiers.add(new RollupPlan.Tier(label, nanos(label)));
    }
    tiers.sort((a, b) -> Long.compare(a.nanos(), b.nanos()));
    return tiers;
  }

  /**
   * The statistics in the tier of each record that has them, by record id.
   *
   * @param windows whether the PromQL windows are wanted too (else only the intervals are decoded)
   */
  public Map<String, RollupStats> stats(List<String> recordIds, String tier, boolean windows) throws IOException {
    List<BytesRef> ids = new ArrayList<>(recordIds.size());
    for (String id : recordIds) {
      ids.add(new BytesRef(id + "~" + tier));
    }
    SolrIndexSearcher index = searcher.get();
    DocSet found = index.getDocSet(new TermInSetQuery(RecordFields.ID, ids));
    Map<String, RollupStats> stats = new HashMap<>();
    for (DocIterator it = found.iterator(); it.hasNext(); ) {
      Document document = index.getDocFetcher().doc(it.nextDoc(), Set.of(RecordFields.ID, RecordFields.DATA));
      String id = document.get(RecordFields.ID);
      stats.put(recordId(id, tier), decode(document, windows));
    }
    return stats;
  }

  /**
   * A rollup record whose record is gone (the tier keeps its rollups longer than the records are
   * kept): its fields as the record had them (its own id replaced by the record's), its span and
   * its statistics.
   */
  public record Orphan(Document fields, long startMillis, long endMillis, RollupStats stats) {}

  /**
   * The rollup records of the tier that the queries select (they carry their records' fields, so
   * the queries of the records select them) and whose record no longer exists.
   *
   * @param matchedRecords the ids of the records the same queries matched: their rollups are
   *     passed over without reading a stored field (in the common case, all of them)
   * @param windows whether the PromQL windows are wanted too (else only the intervals are decoded)
   */
  public List<Orphan> orphans(List<Query> queries, String tier, SolrIndexSearcher records,
      Collection<String> matchedRecords, boolean windows) throws IOException {
    SolrIndexSearcher index = searcher.get();
    List<Query> ofTier = new ArrayList<>(queries);
    ofTier.add(new TermQuery(new Term(TIER, tier)));
    List<BytesRef> known = new ArrayList<>(matchedRecords.size());
    for (String id : matchedRecords) {
      known.add(new BytesRef(id + "~" + tier));
    }
    DocSet candidates = index.getDocSet(ofTier).andNot(index.getDocSet(new TermInSetQuery(RecordFields.ID, known)));
    List<Orphan> orphans = new ArrayList<>();
    for (DocIterator it = candidates.iterator(); it.hasNext(); ) {
      Document stored = index.getDocFetcher().doc(it.nextDoc());
      String recordId = recordId(stored.get(RecordFields.ID), tier);
      if (records.getFirstMatch(new Term(RecordFields.ID, recordId)) >= 0) {
        continue; // the record exists, though the queries did not match it (written meanwhile)
      }
      RollupStats stats = decode(stored, windows);
      // a copy: the searcher's document cache holds the stored one
      Document document = new Document();
      for (IndexableField field : stored.getFields()) {
        if (!field.name().equals(RecordFields.ID) && !field.name().equals(RecordFields.DATA)) {
          document.add(field);
        }
      }
      document.add(new StringField(RecordFields.ID, recordId, Field.Store.YES));
      orphans.add(new Orphan(document, document.getField(RecordFields.START).numericValue().longValue(),
          document.getField(RecordFields.END).numericValue().longValue(), stats));
    }
    return orphans;
  }

  private static String recordId(String rollupId, String tier) {
    return rollupId.substring(0, rollupId.length() - tier.length() - 1);
  }

  private static RollupStats decode(Document document, boolean windows) {
    byte[] data = BytesRef.deepCopyOf(document.getBinaryValue(RecordFields.DATA)).bytes;
    try {
      return windows ? RollupBlob.decode(data) : RollupBlob.decodeIntervals(data);
    } catch (CorruptBlobException e) {
      throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "rollup record " + document.get(RecordFields.ID)
          + ": " + e.getMessage(), e);
    }
  }

  /** A tier label (5m, 1h, 1d, 90s, 250ms) as nanoseconds. */
  static long nanos(String label) {
    long unit;
    String number;
    if (label.endsWith("ms")) {
      unit = 1_000_000L;
      number = label.substring(0, label.length() - 2);
    } else {
      unit = switch (label.charAt(label.length() - 1)) {
        case 's' -> 1_000_000_000L;
        case 'm' -> 60_000_000_000L;
        case 'h' -> 3_600_000_000_000L;
        case 'd' -> 86_400_000_000_000L;
        default -> throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "unknown rollup tier '" + label + "'");
      };
      number = label.substring(0, label.length() - 1);
    }
    return Long.parseLong(number) * unit;
  }

  @Override
  public void close() {
    searcher.decref();
    core.close();
  }
}
