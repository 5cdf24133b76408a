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
import io.chronix.ingest.solr.InProcessRequest;
import io.chronix.ingest.solr.RecordSpans;
import io.chronix.ingest.store.RecordDocuments;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.apache.solr.common.SolrDocument;
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

  /**
   * How much a run lists, reads, merges and writes at once.
   *
   * @param listed records listed a page, by id and span only (the small ones, and the full ones
   *     that a batch's range of ids holds): every page searches all of them again, sorted by id
   *     (with 1,000 a page, those searches were a fifth of compacting 50,000 series;
   *     docs/benchmarks.md, "Compaction by batches")
   * @param read records read whole a query, and a series' overlapping records listed a page
   * @param group small records of one series merged in one go: bounds the records (and points)
   *     held at once
   * @param batch groups whose overlapping records one query finds (one automaton for a range of
   *     ids: a prefix query a series spent half the time building its own), whose records are read
   *     together and whose merged records one update writes; a batch also ends at {@code group}
   *     small records
   * @param walked full records a group of the batch up to which one query walks the batch's range
   *     of ids; where more lie in it (few series with small records among many without, or groups
   *     far apart in time), each series of the batch is asked on its own, as a walk then reads
   *     more records than a query a series costs (docs/benchmarks.md, "Compaction in a sparse
   *     index")
   */
  record Sizes(int listed, int read, int group, int batch, int walked) {
    static final Sizes DEFAULT = new Sizes(50_000, 1_000, 1_000, 500, 32);
  }

  /** Overlapping records merged with a group at most. */
  private static final int MAX_OVERLAPPING = 100_000;

  private final SolrClient client;
  private final String collection;
  private final Chunker chunker;
  private final int smallBelow;
  private final Sizes sizes;
  /** Totals since the start, for /metrics: written by compact() under its lock, read without it. */
  private volatile Result totals = new Result(0, 0, 0);
  private volatile long runs;

  private PointChanges changes = PointChanges.NONE;

  /** Null without rollup tiers; else the merged records' rollups replace those of their inputs. */
  private RollupStore rollups;

  /** Records with fewer than half a chunk's points are small. */
  public Compactor(SolrClient client, String collection, int chunkMaxPoints, ChunkCodec codec) {
    this(client, collection, chunkMaxPoints, codec, Sizes.DEFAULT);
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

  /** With other sizes (tests make them small). */
  Compactor(SolrClient client, String collection, int chunkMaxPoints, ChunkCodec codec, Sizes sizes) {
    this.sizes = sizes;
    this.client = client;
    this.collection = collection;
    this.chunker = new Chunker(chunkMaxPoints, codec);
    this.smallBelow = Math.max(2, chunkMaxPoints / 2);
  }

  /** What a compaction run did. */
  public record Result(int series, int recordsRead, int recordsWritten) {}

  /**
   * One run at a time: the schedule and {@code POST /compact} share this. Small records are listed
   * page by page in id order, which keeps each series' records together; groups of them (at most
   * {@code group} records each) are merged a batch at a time, whose records are read whole some
   * {@code read} at a time (a series' always together), however many small records there are.
   */
  public synchronized Result compact() throws IOException {
    SolrQuery query = new SolrQuery(RecordFields.COUNT + ":[* TO " + (smallBelow - 1) + "]")
        .setFields(RecordFields.ID, RecordFields.START, RecordFields.END)
        .setRows(sizes.listed())
        .setSort(RecordFields.ID, SolrQuery.ORDER.asc);
    Run run = new Run();
    eachRecord(query, run::listed);
    run.listedAll();
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

  /**
   * Small records of one series, with the span of their points as the page that listed them said
   * (read with their ids, the span costs no query of its own: one was a fifth of a fleet's
   * compaction), and the records to merge with them once the batch has read them.
   */
  private static final class Group {
    final String prefix;
    final List<String> ids = new ArrayList<>();
    /** Full records of the series that overlap the span, claimed for this group. */
    final List<String> overlapping = new ArrayList<>();
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    final List<SolrDocument> found = new ArrayList<>();

    Group(String prefix) {
      this.prefix = prefix;
    }

    void add(Listed record) {
      ids.add(record.id());
      from = Math.min(from, record.start());
      to = Math.max(to, record.end());
    }

    int records() {
      return ids.size();
    }

    boolean overlaps(Listed record) {
      return record.start() <= to && record.end() >= from;
    }
  }

  /**
   * One run: the groups waiting for their batch's queries, the merged records waiting for the
   * batch's update, and the tally (a series split into several groups counts once).
   */
  private final class Run {
    int series;
    int read;
    int written;
    String lastSeries;
    /** The earliest point of the records rewritten (epoch milliseconds). */
    long from = Long.MAX_VALUE;

    /** The group the listing fills. */
    private Group listing;
    private final List<Group> pending = new ArrayList<>();
    private int pendingRecords;
    /**
     * Ids of the current series' full records merged in this run: one that overlaps two of its
     * groups is merged with the first only, and the second's query still finds it (the deletes
     * are not committed before the run ends).
     */
    private final Set<String> claimed = new HashSet<>();
    private String claimedSeries;
    /** The series whose full records the batch's query is at, and its pending groups. */
    private String candidateSeries;
    private List<Group> candidateGroups = List.of();
    /**
     * The batch's groups by series, in id order as listed: asked a series at a time, a series'
     * claims outlive its batch only while the next batch's queries begin with it.
     */
    private final Map<String, List<Group>> pendingBySeries = new LinkedHashMap<>();

    private final List<SolrInputDocument> documents = new ArrayList<>();
    private final List<Record> records = new ArrayList<>();
    private final List<Points> slices = new ArrayList<>();
    private final List<Long> orders = new ArrayList<>();
    private final List<String> oldIds = new ArrayList<>();

    /** The small record the listing came to: its series' group, or the start of the next one. */
    void listed(Listed record) throws IOException {
      String prefix = RecordSchema.seriesIdOf(record.id()) + '-';
      if (listing == null || !prefix.equals(listing.prefix) || listing.records() >= sizes.group()) {
        add(listing);
        listing = new Group(prefix);
      }
      listing.add(record);
    }

    /** Merges and writes what waits once every small record was listed. */
    void listedAll() throws IOException {
      add(listing);
      mergeBatch();
    }

    /** Queues a group of at least two small records; a full batch is merged and written. */
    private void add(Group group) throws IOException {
      if (group == null || group.records() < 2) {
        return;
      }
      pending.add(group);
      pendingRecords += group.records();
      if (pending.size() >= sizes.batch() || pendingRecords >= sizes.group()) {
        mergeBatch();
      }
    }

    /**
     * Finds the full records that overlap the pending groups, reads them and the groups' own
     * records whole, some {@code read} at a time and each series in one read, merges each group,
     * and writes what they merged into.
     */
    private void mergeBatch() throws IOException {
      if (pending.isEmpty()) {
        return;
      }
      claimOverlapping();
      // read a few series at a time, each whole: the answer comes in index order, not by series
      List<Group> chunk = new ArrayList<>();
      Map<String, Group> owners = new HashMap<>();
      String series = null;
      for (Group group : pending) {
        if (!group.prefix.equals(series) && owners.size() >= sizes.read()) {
          readAndMerge(chunk, owners);
        }
        series = group.prefix;
        chunk.add(group);
        for (String id : group.ids) {
          owners.put(id, group);
        }
        for (String id : group.overlapping) {
          owners.put(id, group);
        }
      }
      readAndMerge(chunk, owners);
      pending.clear();
      pendingRecords = 0;
      write();
    }

    /** Reads the groups' records whole, in one query by their ids, and merges each group. */
    private void readAndMerge(List<Group> groups, Map<String, Group> owners) throws IOException {
      if (owners.isEmpty()) {
        return;
      }
      SolrQuery query = new SolrQuery("{!terms f=" + RecordFields.ID + "}" + String.join(",", owners.keySet()))
          .setFields("*", RecordFields.VERSION, RecordFields.WRITE_ORDER)
          .setRows(owners.size());
      // a batch's ids make a long query string: too long for a URL to a remote node
      for (SolrDocument record : query(query, SolrRequest.METHOD.POST).getResults()) {
        owners.get((String) record.getFirstValue(RecordFields.ID)).found.add(record);
      }
      merge(groups);
      groups.clear();
      owners.clear();
      if (documents.size() >= sizes.read()) {
        write(); // groups with many overlapping records merge into many: hold about a read's worth
      }
    }

    /**
     * Full records that overlap a group join it: their points may be duplicates to fold away. One
     * query for the batch, on the range of its series' ids and the span of all its groups, spans
     * and bounds read without the blobs, where that range holds few records besides the batch's
     * own (a prefix query a series spent half of a fleet's compaction building its automaton;
     * docs/benchmarks.md); else a query for each series of the batch, on its own groups' span.
     */
    private void claimOverlapping() throws IOException {
      candidateSeries = null; // the last batch's groups are gone
      // the range holds every series between the batch's first and last: look its groups up
      pendingBySeries.clear();
      for (Group group : pending) {
        pendingBySeries.computeIfAbsent(group.prefix, prefix -> new ArrayList<>(1)).add(group);
      }
      SolrQuery range = fullRecords(pending.get(0).prefix, pending.get(pending.size() - 1).prefix, pending);
      if (count(range) <= (long) sizes.walked() * pending.size()) {
        eachRecord(range.setRows(sizes.listed()), this::claim);
        return;
      }
      for (Map.Entry<String, List<Group>> series : pendingBySeries.entrySet()) {
        eachRecord(fullRecords(series.getKey(), series.getKey(), series.getValue()).setRows(sizes.read()), this::claim);
      }
    }

    /**
     * The full records of the series from the one with prefix {@code first} to the one with prefix
     * {@code last} in id order that overlap the span of the groups, by id, their ids and spans only.
     */
    private SolrQuery fullRecords(String first, String last, List<Group> groups) {
      long from = Long.MAX_VALUE;
      long to = Long.MIN_VALUE;
      for (Group group : groups) {
        from = Math.min(from, group.from);
        to = Math.max(to, group.to);
      }
      // every id of a series starts with its prefix, which ends in '-': the next character bounds them
      String above = last.substring(0, last.length() - 1) + (char) ('-' + 1);
      return RecordSpans.overlapping(new SolrQuery(RecordFields.ID + ":[" + ClientUtils.escapeQueryChars(first)
          + " TO " + ClientUtils.escapeQueryChars(above) + "}"), from, to)
          .addFilterQuery(RecordFields.COUNT + ":[" + smallBelow + " TO *]")
          .setFields(RecordFields.ID, RecordFields.START, RecordFields.END)
          .setSort(RecordFields.ID, SolrQuery.ORDER.asc);
    }

    private long count(SolrQuery query) throws IOException {
      return query(query.getCopy().setRows(0), SolrRequest.METHOD.GET).getResults().getNumFound();
    }

    /** The pending groups of a series; none for a series in the batch's id range without small records. */
    private List<Group> groupsOf(String prefix) {
      List<Group> groups = pendingBySeries.getOrDefault(prefix, List.of());
      if (!groups.isEmpty() && !prefix.equals(claimedSeries)) {
        claimed.clear();
        claimedSeries = prefix;
      }
      return groups;
    }

    /** The first of the series' groups that the record overlaps takes it, unless merged before. */
    private void claim(Listed record) {
      String id = record.id();
      String prefix = RecordSchema.seriesIdOf(id) + '-';
      if (!prefix.equals(candidateSeries)) {
        candidateSeries = prefix;
        candidateGroups = groupsOf(prefix);
      }
      if (candidateGroups.isEmpty() || claimed.contains(id)) {
        return;
      }
      for (Group group : candidateGroups) {
        if (group.overlaps(record) && group.overlapping.size() < MAX_OVERLAPPING) {
          group.overlapping.add(id);
          claimed.add(id);
          return;
        }
      }
    }

    private void merge(List<Group> groups) {
      for (Group group : groups) {
        if (group.found.size() >= 2) {
          mergeGroup(group.found);
          if (!group.prefix.equals(lastSeries)) {
            series++;
            lastSeries = group.prefix;
          }
        }
        group.found.clear();
      }
    }

    private void mergeGroup(List<SolrDocument> found) {
      found.sort(Comparator.comparingLong(Compactor::writeOrder));
      SeriesKey key = RecordDocuments.keyOf(found.get(0));
      List<Points> chunks = new ArrayList<>(found.size());
      Set<String> replaced = new HashSet<>();
      // the merged records take the newest input's order: a record written after this run read its
      // inputs comes later still and keeps winning over them
      long order = writeOrder(found.get(found.size() - 1));
      for (SolrDocument record : found) {
        from = Math.min(from, number(record, RecordFields.START));
        chunks.add(ChunkCodec.decode(bytes(record.getFirstValue(RecordFields.DATA))));
        replaced.add((String) record.getFirstValue(RecordFields.ID));
      }
      Chunker.Cut cut = chunker.cut(key, SeriesMerge.merge(chunks));
      for (int i = 0; i < cut.records().size(); i++) {
        Record record = cut.records().get(i);
        documents.add(RecordDocuments.toDocument(record, order));
        records.add(record);
        slices.add(cut.slices().get(i));
        orders.add(order);
        replaced.remove(record.id()); // an unchanged chunk keeps its id: nothing to delete
      }
      oldIds.addAll(replaced);
      read += found.size();
      written += cut.records().size();
    }

    /** New records first: a crash in between leaves duplicates (merged again next run), never a gap. */
    private void write() throws IOException {
      try {
        if (!documents.isEmpty()) {
          client.add(collection, documents);
          if (rollups != null) {
            rollups.written(records, slices, orders.stream().mapToLong(Long::longValue).toArray());
          }
        }
        if (!oldIds.isEmpty()) {
          client.deleteById(collection, oldIds);
          if (rollups != null) {
            rollups.deleted(oldIds);
          }
        }
      } catch (SolrServerException e) {
        throw new IOException("compaction could not write " + documents.size() + " merged records or delete the "
            + oldIds.size() + " they replace: " + e.getMessage(), e);
      } finally {
        documents.clear();
        records.clear();
        slices.clear();
        orders.clear();
        oldIds.clear();
      }
    }
  }

  /** A record as a listing names it: its id and the span of its points (epoch milliseconds). */
  private record Listed(String id, long start, long end) {}

  /** A listing's page and the cursor of the next one. */
  private record Page(List<Listed> records, String nextCursor) {}

  /** What a cursor's query does with each record it answers. */
  @FunctionalInterface
  private interface RecordAction {
    void accept(Listed record) throws IOException;
  }

  /**
   * Every record the query finds (its id and span, which the query asks for), page by page: the
   * query sorts by id, which a cursor needs.
   */
  private void eachRecord(SolrQuery query, RecordAction action) throws IOException {
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      query.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      Page page = page(query);
      for (Listed record : page.records()) {
        action.accept(record);
      }
      if (cursor.equals(page.nextCursor())) {
        return;
      }
      cursor = page.nextCursor();
    }
  }

  /**
   * One page, its records' ids and spans taken out of the answer, which is let go before the
   * actions run: they merge and write whole batches while a page is walked, and a fleet's page of
   * 50,000 answered documents held meanwhile was 50-80 MB that each young collection of the run
   * copied again (docs/benchmarks.md, "The fleet's young collections").
   */
  private Page page(SolrQuery query) throws IOException {
    QueryResponse response = query(query, SolrRequest.METHOD.GET);
    List<Listed> records = new ArrayList<>(response.getResults().size());
    for (SolrDocument record : response.getResults()) {
      records.add(new Listed((String) record.getFirstValue(RecordFields.ID), number(record, RecordFields.START),
          number(record, RecordFields.END)));
    }
    return new Page(records, response.getNextCursorMark());
  }

  private static long number(SolrDocument record, String field) {
    return ((Number) record.getFirstValue(field)).longValue();
  }

  /** A blob as SolrJ reads it, or as the embedded node's documents hold it. */
  private static byte[] bytes(Object blob) {
    if (blob instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    return (byte[]) blob;
  }

  private static long writeOrder(SolrDocument record) {
    return RecordSchema.writeOrder((Number) record.getFirstValue(RecordFields.WRITE_ORDER),
        (Number) record.getFirstValue(RecordFields.VERSION), 0);
  }

  private QueryResponse query(SolrQuery query, SolrRequest.METHOD method) throws IOException {
    if (client instanceof EmbeddedSolrServer embedded) {
      try {
        return InProcessRequest.select(embedded, collection, query);
      } catch (IOException e) {
        throw new IOException("compaction query failed: " + e.getMessage(), e);
      }
    }
    try {
      return client.query(collection, query, method);
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
