package io.chronix.ingest.lifecycle;

import io.chronix.analysis.promql.engine.PointChanges;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.analysis.promql.parser.PromQlParser;
import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.Record;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.promql.SeriesLabels;
import io.chronix.ingest.rollup.OrphanRollups;
import io.chronix.ingest.rollup.RollupStore;
import io.chronix.ingest.solr.RecordSpans;
import io.chronix.ingest.store.RecordDocuments;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * Deletes the points of selected series in a time range (docs/lifecycle.md). Records wholly
 * inside the range are deleted; a record that straddles an edge is rewritten without the points
 * inside (same series, same write order), so no other point is lost. Series are selected by a
 * Solr query on the record fields or by PromQL selectors; selectors are checked exactly on every
 * record's labels, Solr only narrows the candidates down.
 *
 * <p>Runs under the compactor's lock: a compaction reading records while they are deleted would
 * write their points back.
 */
public final class SeriesDeleter {

  private PointChanges changes = PointChanges.NONE;

  private static final int PAGE = 500;

  /** What to delete: a Solr query, or PromQL selectors (any of them). */
  public record Selection(String solrQuery, List<String> selectors) {
    public Selection {
      selectors = List.copyOf(selectors);
      if ((solrQuery == null || solrQuery.isBlank()) == selectors.isEmpty()) {
        throw new IllegalArgumentException("name the series to delete with either q (a Solr query on the record "
            + "fields) or match[] (PromQL selectors), not both and not neither");
      }
    }
  }

  /**
   * What a delete did: points and records, and rollup records whose record was gone already
   * (tiers kept longer than their records), deleted or rewritten without the range's intervals.
   */
  public record Result(long pointsDeleted, long recordsDeleted, long recordsRewritten, long rollupsDeleted,
      long rollupsRewritten) {}

  private final SolrClient client;
  private final String collection;
  private final Chunker chunker;
  private final Compactor compactor;
  /** Null without rollup tiers; else they follow the records. */
  private RollupStore rollups;
  /** Null without rollup tiers; else the range is erased from rollups whose records are gone. */
  private OrphanRollups orphans;

  /**
   * Keeps the rollup tiers in step with the records it deletes and rewrites, and erases the range
   * from the rollups that outlived their records.
   */
  /** Tells {@code changes} of every range deleted from, once searches see it. */
  public SeriesDeleter reportingTo(PointChanges changes) {
    this.changes = changes;
    return this;
  }

  public SeriesDeleter withRollups(RollupStore rollups, OrphanRollups orphans) {
    this.rollups = rollups;
    this.orphans = orphans;
    return this;
  }

  public SeriesDeleter(SolrClient client, String collection, Chunker chunker, Compactor compactor) {
    this.client = client;
    this.collection = collection;
    this.chunker = chunker;
    this.compactor = compactor;
  }

  /**
   * @param startMillis first millisecond of the range, inclusive
   * @param endMillis last millisecond of the range, inclusive
   * @throws IllegalArgumentException for a selector that is not PromQL or a range that ends before it starts
   */
  public Result delete(Selection selection, long startMillis, long endMillis) throws IOException {
    if (endMillis < startMillis) {
      throw new IllegalArgumentException("end (" + endMillis + ") lies before start (" + startMillis + ")");
    }
    List<List<LabelMatcher>> selectors = new ArrayList<>();
    for (String selector : selection.selectors()) {
      try {
        selectors.add(PromQlParser.parseSelector(selector).matchers());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("match[] " + selector + ": " + e.getMessage(), e);
      }
    }
    SolrQuery query = RecordSpans.overlapping(new SolrQuery(selectors.isEmpty() ? selection.solrQuery() : "*:*"),
            startMillis, endMillis)
        .setFields("*", RecordFields.VERSION, RecordFields.WRITE_ORDER)
        .setRows(PAGE)
        .setSort(RecordFields.ID, SolrQuery.ORDER.asc);
    String narrowed = candidates(selectors);
    if (narrowed != null) {
      query.addFilterQuery(narrowed);
    }
    synchronized (compactor) {
      long points = 0;
      long deleted = 0;
      long rewritten = 0;
      String cursor = CursorMarkParams.CURSOR_MARK_START;
      while (true) {
        query.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
        QueryResponse response = query(query);
        for (SolrDocument record : response.getResults()) {
          if (!selectors.isEmpty() && !matchesAny(SeriesLabels.of(record), selectors)) {
            continue;
          }
          long removed = deleteFrom(record, startMillis, endMillis);
          points += removed;
          if (removed > 0) {
            if (removedWhole(record, startMillis, endMillis)) {
              deleted++;
            } else {
              rewritten++;
            }
          }
        }
        if (cursor.equals(response.getNextCursorMark())) {
          break;
        }
        cursor = response.getNextCursorMark();
      }
      try {
        client.commit(collection);
      } catch (SolrServerException e) {
        throw new IOException("delete: commit failed: " + e.getMessage(), e);
      } finally {
        changes.changedFrom(startMillis); // also after a failed commit: a later one shows what it did
      }
      OrphanRollups.Result erased = orphans == null ? new OrphanRollups.Result(0, 0)
          : orphans.erase(selectors.isEmpty() ? selection.solrQuery() : "*:*",
              narrowed == null ? List.of() : List.of(narrowed),
              rollup -> selectors.isEmpty() || matchesAny(SeriesLabels.of(rollup), selectors), startMillis, endMillis);
      return new Result(points, deleted, rewritten, erased.deleted(), erased.rewritten());
    }
  }

  private static boolean removedWhole(SolrDocument record, long startMillis, long endMillis) {
    return number(record, RecordFields.START) >= startMillis && number(record, RecordFields.END) <= endMillis;
  }

  /** Removes the record's points in the range; returns how many it held there. */
  private long deleteFrom(SolrDocument record, long startMillis, long endMillis) throws IOException {
    String id = (String) record.getFirstValue(RecordFields.ID);
    Points points = ChunkCodec.decode((byte[]) record.getFirstValue(RecordFields.DATA));
    Points kept = new Points(points.type(), points.size());
    for (int i = 0; i < points.size(); i++) {
      long millis = Math.floorDiv(points.timestamp(i), 1_000_000L);
      if (millis < startMillis || millis > endMillis) {
        kept.addFrom(points, i);
      }
    }
    long removed = points.size() - kept.size();
    if (removed == 0) {
      return 0;
    }
    try {
      boolean idReused = false;
      if (!kept.isEmpty()) {
        SeriesKey key = RecordDocuments.keyOf(record);
        long order = RecordSchema.writeOrder((Number) record.getFirstValue(RecordFields.WRITE_ORDER),
            (Number) record.getFirstValue(RecordFields.VERSION), 0);
        List<SolrInputDocument> documents = new ArrayList<>();
        Chunker.Cut cut = chunker.cut(key, kept);
        List<Record> rewritten = cut.records();
        for (Record rest : rewritten) {
          documents.add(RecordDocuments.toDocument(rest, order));
          idReused |= rest.id().equals(id);
        }
        // the remaining points first: a crash in between leaves them twice (they fold into one), never lost
        client.add(collection, documents);
        if (rollups != null) {
          long[] orders = new long[rewritten.size()];
          java.util.Arrays.fill(orders, order);
          rollups.written(rewritten, cut.slices(), orders);
        }
      }
      if (!idReused) {
        client.deleteById(collection, id);
        if (rollups != null) {
          rollups.deleted(List.of(id));
        }
      }
    } catch (SolrServerException e) {
      throw new IOException("delete: rewriting record " + id + " failed: " + e.getMessage(), e);
    }
    return removed;
  }

  private static boolean matchesAny(Labels labels, List<List<LabelMatcher>> selectors) {
    for (List<LabelMatcher> matchers : selectors) {
      boolean all = true;
      for (LabelMatcher matcher : matchers) {
        all &= matcher.matches(labels);
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  /**
   * A Solr filter that keeps every record a selector could match: the equality matchers on the
   * metric name (the others are checked on the labels). Null when some selector names no metric.
   */
  private static String candidates(List<List<LabelMatcher>> selectors) {
    if (selectors.isEmpty()) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (List<LabelMatcher> matchers : selectors) {
      String name = null;
      for (LabelMatcher matcher : matchers) {
        if (matcher.name().equals(Labels.METRIC_NAME) && matcher.type() == LabelMatcher.Type.EQUAL) {
          name = matcher.value();
        }
      }
      if (name == null) {
        return null;
      }
      names.add(RecordFields.NAME + ":\"" + ClientUtils.escapeQueryChars(name) + "\"");
    }
    return String.join(" OR ", names);
  }

  private QueryResponse query(SolrQuery query) throws IOException {
    try {
      return client.query(collection, query);
    } catch (SolrServerException | RuntimeException e) {
      throw new IOException("delete: cannot read the records: " + e.getMessage(), e);
    }
  }

  private static long number(SolrDocument record, String field) {
    return ((Number) record.getFirstValue(field)).longValue();
  }
}
