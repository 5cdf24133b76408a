package io.chronix.ingest.compaction;

import io.chronix.analysis.promql.engine.PointChanges;
import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.Record;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesMerge;
import io.chronix.ingest.rollup.RollupStore;
import io.chronix.ingest.store.RecordDocuments;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * Live ingestion writes a record whenever a buffer grows old, so slow series end up as many small
 * records. Compaction merges the small records of each series, together with every record that
 * overlaps them, into full chunks, and deletes what it replaced: storage ends up as compact as
 * after a bulk import, and points stored twice (after a crash between writing and deleting) are
 * merged back into one.
 */
public final class Compactor {

  private static final int PAGE = 1000;
  /** Small records of one series merged in one go: bounds the records (and points) held at once. */
  private static final int MAX_GROUP = 1000;
  /**
   * Records asked for at first beside a group's own that overlap it; where more overlap, they are
   * asked for again, all of them. Solr's collector fills a queue as long as the rows asked for
   * before it collects anything: asked for 100,000 rows, each series compacted cost 2.4 MB of
   * garbage, a seventh of all that a fleet's server allocated (docs/benchmarks.md).
   */
  static final int OVERLAP_SLACK = 16;
  /** Overlapping records merged with a group at most. */
  private static final int MAX_OVERLAPPING = 100_000;

  private final SolrClient client;
  private final String collection;
  private final Chunker chunker;
  private final int smallBelow;
  private final int page;
  private final int maxGroup;
  /** Totals since the start, for /metrics: written by compact() under its lock, read without it. */
  private volatile Result totals = new Result(0, 0, 0);
  private volatile long runs;

  private PointChanges changes = PointChanges.NONE;

  /** Null without rollup tiers; else the merged records' rollups replace those of their inputs. */
  private RollupStore rollups;

  /** Records with fewer than half a chunk's points are small. */
  public Compactor(SolrClient client, String collection, int chunkMaxPoints, ChunkCodec codec) {
    this(client, collection, chunkMaxPoints, codec, PAGE, MAX_GROUP);
  }

  /**
   * Tells {@code changes} where a run rewrote records: merged duplicates answer as before, but a
   * query between the new records and the deletes may have seen both.
   */
  public Compactor reportingTo(PointChanges changes) {
    this.changes = changes;
    return this;
  }

  /** Keeps the rollup tiers in step with the records it rewrites. */
  public Compactor withRollups(RollupStore rollups) {
    this.rollups = rollups;
    return this;
  }

  /** With the ids read per page and the small records merged at once (tests make them small). */
  Compactor(SolrClient client, String collection, int chunkMaxPoints, ChunkCodec codec, int page, int maxGroup) {
    this.page = page;
    this.maxGroup = maxGroup;
    this.client = client;
    this.collection = collection;
    this.chunker = new Chunker(chunkMaxPoints, codec);
    this.smallBelow = Math.max(2, chunkMaxPoints / 2);
  }

  /** What a compaction run did. */
  public record Result(int series, int recordsRead, int recordsWritten) {}

  /**
   * One run at a time: the schedule and {@code POST /compact} share this. Small records are read
   * page by page in id order, which keeps each series' records together; only one series' group
   * (at most {@code maxGroup} records) is held at a time, however many small records there are.
   */
  public synchronized Result compact() throws IOException {
    SolrQuery query = new SolrQuery(RecordFields.COUNT + ":[* TO " + (smallBelow - 1) + "]")
        .setFields(RecordFields.ID, RecordFields.START, RecordFields.END)
        .setRows(page)
        .setSort(RecordFields.ID, SolrQuery.ORDER.asc);
    Run run = new Run();
    String series = null;
    Group group = new Group();
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      query.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse response = query(query);
      for (SolrDocument document : response.getResults()) {
        String id = (String) document.getFirstValue(RecordFields.ID);
        String prefix = RecordSchema.seriesIdOf(id) + '-';
        if (!prefix.equals(series) || group.records >= maxGroup) {
          run.compact(series, group);
          group = new Group();
          series = prefix;
        }
        group.add(document);
      }
      if (cursor.equals(response.getNextCursorMark())) {
        break;
      }
      cursor = response.getNextCursorMark();
    }
    run.compact(series, group);
    if (run.series > 0) {
      commit();
      changes.changedFrom(run.from);
    }
    runs++;
    totals = new Result(totals.series() + run.series, totals.recordsRead() + run.read,
        totals.recordsWritten() + run.written);
    return new Result(run.series, run.read, run.written);
  }

  /** Runs finished since the start. */
  public long runs() {
    return runs;
  }

  /** What every finished run did, added up. */
  public Result totals() {
    return totals;
  }

  /** The tally of one run; a series split into several groups counts once. */
  private final class Run {
    int series;
    int read;
    int written;
    String lastSeries;
    /** The earliest point of the records rewritten (epoch milliseconds). */
    long from = Long.MAX_VALUE;

    void compact(String prefix, Group group) throws IOException {
      if (group.records < 2) {
        return;
      }
      int[] counts = compactSeries(prefix, group, this);
      if (!prefix.equals(lastSeries)) {
        series++;
        lastSeries = prefix;
      }
      read += counts[0];
      written += counts[1];
    }
  }

  /**
   * Small records of one series, counted, with the span of their points as the page that listed
   * them said: read with their ids, the span costs no query of its own (one was a fifth of a
   * fleet's compaction).
   */
  private static final class Group {
    int records;
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;

    void add(SolrDocument record) {
      records++;
      from = Math.min(from, ((Number) record.getFirstValue(RecordFields.START)).longValue());
      to = Math.max(to, ((Number) record.getFirstValue(RecordFields.END)).longValue());
    }
  }

  private int[] compactSeries(String prefix, Group group, Run run) throws IOException {
    // records overlapping the small ones join in: their points may be duplicates to fold away
    List<SolrDocument> records = overlapping(prefix, group.from, group.to, group.records);
    if (records.size() < 2) {
      return new int[] {0, 0};
    }
    records.sort(Comparator.comparingLong(Compactor::writeOrder));
    for (SolrDocument record : records) {
      run.from = Math.min(run.from, ((Number) record.getFirstValue(RecordFields.START)).longValue());
    }
    SeriesKey key = RecordDocuments.keyOf(records.get(0));
    List<Points> chunks = new ArrayList<>(records.size());
    Set<String> oldIds = new HashSet<>();
    // the merged records take the newest input's order: a record written after this run read its
    // inputs comes later still and keeps winning over them
    long order = writeOrder(records.get(records.size() - 1));
    for (SolrDocument record : records) {
      chunks.add(ChunkCodec.decode((byte[]) record.getFirstValue(RecordFields.DATA)));
      oldIds.add((String) record.getFirstValue(RecordFields.ID));
    }
    Points points = SeriesMerge.merge(chunks);
    Chunker.Cut cut = chunker.cut(key, points);
    List<Record> merged = cut.records();
    List<SolrInputDocument> documents = new ArrayList<>(merged.size());
    for (Record record : merged) {
      documents.add(RecordDocuments.toDocument(record, order));
      oldIds.remove(record.id()); // an unchanged chunk keeps its id: nothing to delete
    }
    try {
      // new records first: a crash in between leaves duplicates (merged again next run), never a gap
      client.add(collection, documents);
      if (rollups != null) {
        long[] orders = new long[merged.size()];
        java.util.Arrays.fill(orders, order);
        rollups.written(merged, cut.slices(), orders);
      }
      if (!oldIds.isEmpty()) {
        client.deleteById(collection, new ArrayList<>(oldIds));
        if (rollups != null) {
          rollups.deleted(new ArrayList<>(oldIds));
        }
      }
    } catch (SolrServerException e) {
      throw new IOException("compacting " + key + " failed: " + e.getMessage(), e);
    }
    return new int[] {records.size(), merged.size()};
  }

  /** The series' records that overlap the span from {@code from} to {@code to}, whole. */
  private List<SolrDocument> overlapping(String prefix, long from, long to, int small) throws IOException {
    SolrQuery query = new SolrQuery(RecordFields.ID + ":" + ClientUtils.escapeQueryChars(prefix) + "*")
        .addFilterQuery(RecordFields.END + ":[" + from + " TO *]")
        .addFilterQuery(RecordFields.START + ":[* TO " + to + "]")
        .setFields("*", RecordFields.VERSION, RecordFields.WRITE_ORDER)
        .setRows(small + OVERLAP_SLACK);
    SolrDocumentList found = query(query).getResults();
    if (found.getNumFound() > found.size()) {
      found = query(query.setRows((int) Math.min(found.getNumFound(), MAX_OVERLAPPING))).getResults();
    }
    return new ArrayList<>(found);
  }

  private static long writeOrder(SolrDocument record) {
    return RecordSchema.writeOrder((Number) record.getFirstValue(RecordFields.WRITE_ORDER),
        (Number) record.getFirstValue(RecordFields.VERSION), 0);
  }

  private QueryResponse query(SolrQuery query) throws IOException {
    try {
      return client.query(collection, query);
    } catch (SolrServerException e) {
      throw new IOException("compaction query failed: " + e.getMessage(), e);
    }
  }

  private void commit() throws IOException {
    try {
      client.commit(collection, true, true);
    } catch (SolrServerException e) {
      throw new IOException("compaction commit failed: " + e.getMessage(), e);
    }
  }
}
