package io.chronix.ingest.rollup;

import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.record.RecordFields;
import io.chronix.core.rollup.BucketStats;
import io.chronix.core.rollup.RollupBlob;
import io.chronix.core.rollup.RollupStats;
import io.chronix.ingest.solr.RecordSpans;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * Deletes a time range from the rollup records whose record is gone (tiers kept longer than their
 * records, docs/lifecycle.md): with the points gone, a rollup's intervals cannot be split, so every
 * interval that shares a moment with the range is dropped whole (deleted data must never show); a
 * rollup left without intervals is deleted, the others are rewritten under their id.
 */
public final class OrphanRollups {

  private static final int PAGE = 500;

  /** What an erase did: rollup records deleted and rewritten. */
  public record Result(long deleted, long rewritten) {}

  private final SolrClient client;
  private final String collection;
  private final String core;

  public OrphanRollups(SolrClient client, String collection, String core) {
    this.client = client;
    this.collection = collection;
    this.core = core;
  }

  /**
   * @param query selects the candidates by their fields (the records' query: rollups carry the
   *     records' fields); the span filters are added here
   * @param selected checks each candidate exactly (PromQL selectors on its labels)
   * @param startMillis first millisecond of the range, inclusive
   * @param endMillis last millisecond of the range, inclusive
   */
  public Result erase(String query, List<String> filters, Predicate<SolrDocument> selected, long startMillis,
      long endMillis) throws IOException {
    SolrQuery candidates = RecordSpans.overlapping(new SolrQuery(query), startMillis, endMillis)
        .setRows(PAGE)
        .setSort(RecordFields.ID, SolrQuery.ORDER.asc);
    filters.forEach(candidates::addFilterQuery);
    long deleted = 0;
    long rewritten = 0;
    try {
      // rollups of records just deleted or rewritten must be gone or new before orphans are told apart
      client.commit(core);
      String cursor = CursorMarkParams.CURSOR_MARK_START;
      while (true) {
        candidates.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
        QueryResponse response = client.query(core, candidates);
        List<SolrDocument> page = new ArrayList<>();
        for (SolrDocument rollup : response.getResults()) {
          if (selected.test(rollup)) {
            page.add(rollup);
          }
        }
        Set<String> present = existingRecords(page);
        for (SolrDocument rollup : page) {
          String id = (String) rollup.getFirstValue(RecordFields.ID);
          if (present.contains(recordId(id))) {
            continue;
          }
          RollupStats rest = decode(rollup).without(startMillis, endMillis);
          if (rest.isEmpty()) {
            client.deleteById(core, id);
            deleted++;
          } else {
            client.add(core, rewrite(rollup, rest));
            rewritten++;
          }
        }
        if (cursor.equals(response.getNextCursorMark())) {
          break;
        }
        cursor = response.getNextCursorMark();
      }
      client.commit(core);
    } catch (SolrServerException e) {
      throw new IOException("delete: erasing the range from rollups without records failed: " + e.getMessage(), e);
    }
    return new Result(deleted, rewritten);
  }

  /** Which of the rollups' records exist. */
  private Set<String> existingRecords(List<SolrDocument> rollups) throws IOException, SolrServerException {
    Set<String> present = new HashSet<>();
    if (rollups.isEmpty()) {
      return present;
    }
    List<String> ids = new ArrayList<>();
    for (SolrDocument rollup : rollups) {
      ids.add(recordId((String) rollup.getFirstValue(RecordFields.ID)));
    }
    SolrQuery query = new SolrQuery("{!terms f=" + RecordFields.ID + "}" + String.join(",", ids))
        .setFields(RecordFields.ID).setRows(ids.size());
    for (SolrDocument record : client.query(collection, query).getResults()) {
      present.add((String) record.getFirstValue(RecordFields.ID));
    }
    return present;
  }

  /** The rollup with the remaining statistics, its span narrowed to their points in either section. */
  private static SolrInputDocument rewrite(SolrDocument rollup, RollupStats rest) {
    SolrInputDocument document = new SolrInputDocument();
    for (String field : rollup.getFieldNames()) {
      if (!field.equals(RecordFields.VERSION)) {
        document.setField(field, rollup.getFieldValue(field));
      }
    }
    long start = ((Number) rollup.getFirstValue(RecordFields.START)).longValue();
    long end = ((Number) rollup.getFirstValue(RecordFields.END)).longValue();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    BucketStats intervals = rest.intervals();
    if (intervals.size() > 0) { // nanoseconds; the record fields hold milliseconds
      first = Math.floorDiv(intervals.firstTime(0), 1_000_000L);
      last = Math.floorDiv(intervals.lastTime(intervals.size() - 1), 1_000_000L);
    }
    BucketStats windows = rest.windows();
    if (windows != null && windows.size() > 0) { // milliseconds
      first = Math.min(first, windows.firstTime(0));
      last = Math.max(last, windows.lastTime(windows.size() - 1));
    }
    document.setField(RecordFields.START, Math.max(start, first));
    document.setField(RecordFields.END, Math.min(end, last));
    document.setField(RecordFields.DATA, RollupBlob.encode(rest));
    summarize(document, intervals.size() > 0 ? intervals : windows);
    return document;
  }

  /** The record statistics a rollup carries from its record, as they are of what remains. */
  private static void summarize(SolrInputDocument document, BucketStats rest) {
    long count = 0;
    double min = Double.NaN;
    double max = Double.NaN;
    double sum = 0;
    for (int i = 0; i < rest.size(); i++) {
      count += rest.count(i);
      min = BucketStats.minIgnoringNaN(min, rest.min(i));
      max = BucketStats.maxIgnoringNaN(max, rest.max(i));
      sum += rest.valueCount(i) == 0 ? 0 : rest.sum(i);
    }
    setIfPresent(document, RecordFields.COUNT, count);
    setIfPresent(document, RecordFields.MIN, min);
    setIfPresent(document, RecordFields.MAX, max);
    setIfPresent(document, RecordFields.SUM, sum);
    setIfPresent(document, RecordFields.FIRST, rest.first(0));
    setIfPresent(document, RecordFields.LAST, rest.last(rest.size() - 1));
  }

  private static void setIfPresent(SolrInputDocument document, String field, Object value) {
    if (document.containsKey(field)) {
      document.setField(field, value);
    }
  }

  private static RollupStats decode(SolrDocument rollup) {
    try {
      return RollupBlob.decode((byte[]) rollup.getFirstValue(RecordFields.DATA));
    } catch (CorruptBlobException e) {
      throw new CorruptBlobException("rollup record " + rollup.getFirstValue(RecordFields.ID) + ": " + e.getMessage());
    }
  }

  private static String recordId(String rollupId) {
    return rollupId.substring(0, rollupId.lastIndexOf('~'));
  }
}
