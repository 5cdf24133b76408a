package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.rollup.BucketStats;
import io.chronix.core.rollup.RollupStats;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesMerge;
import io.chronix.core.series.ValueType;
import io.chronix.solr.rollup.RollupPlan;
import io.chronix.solr.rollup.RollupSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.apache.lucene.search.Query;
import org.apache.solr.common.SolrException;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * Loads the records a query matched, groups them by join key and joins each group's chunks into
 * one time-ordered sequence clipped to the query range. Where chunks share a timestamp, the one
 * later in {@link JoinOrder} wins: of one series the one written later, of different series the
 * one with the greater series id.
 *
 * <p>On the server's embedded node, series whose points are still buffered join too, matched as
 * records of those points would be ({@link LiveMatcher}); their points were written last, so they
 * win shared timestamps.
 */
public final class SeriesCollector {

  /** Points to decode from which several series are decoded in parallel (below, the hand-off costs more). */
  static final long PARALLEL_DECODE_POINTS = 50_000;

  private final long maxDecodedPoints;
  private final RecordCache records;
  private final boolean inOrder;
  /** The request's share of the points all queries decode at once. */
  private final DecodeShare share;

  /** @param records where records read one at a time are kept for the next query */
  public SeriesCollector(long maxDecodedPoints, RecordCache records) {
    this(maxDecodedPoints, records, DecodeShare.NONE);
  }

  /** @param share the request's share of the points all queries of the core decode at once */
  public SeriesCollector(long maxDecodedPoints, RecordCache records, DecodeShare share) {
    this(maxDecodedPoints, records, true, share);
  }

  private SeriesCollector(long maxDecodedPoints, RecordCache records, boolean inOrder, DecodeShare share) {
    this.maxDecodedPoints = maxDecodedPoints;
    this.records = records;
    this.inOrder = inOrder;
    this.share = share;
  }

  /**
   * This collector answering its series in any order, for a caller that orders them its own way
   * (the PromQL engine sorts by labels): sorting 10,000 series by their join keys as well was a
   * fourteenth of a topk over them.
   */
  public SeriesCollector inAnyOrder() {
    return new SeriesCollector(maxDecodedPoints, records, false, share);
  }

  private void order(List<JoinedSeries> series) {
    if (inOrder) {
      JoinedSeries.sort(series);
    }
  }

  /**
   * Joined series in {@link JoinedSeries#sort} order (unless {@link #inAnyOrder}); series with no
   * point in range are left out.
   */
  public List<JoinedSeries> collect(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join) throws IOException {
    return collect(searcher, queries, range, join, false);
  }

  /**
   * @param keysOnly only the series' fields: no blob is read, and a series is there when one of
   *     its records overlaps the range (its points are not clipped to find out)
   */
  public List<JoinedSeries> collect(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join, boolean keysOnly) throws IOException {
    return collect(searcher, queries, range, join, keysOnly, false);
  }

  /**
   * @param summarize the query asks only for aggregations that record statistics answer
   *     ({@link RecordSummary}): series whose records allow it come back as summaries
   */
  public List<JoinedSeries> collect(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join, boolean keysOnly, boolean summarize) throws IOException {
    return collect(searcher, queries, range, join, keysOnly, summarize, null, null, UnaryOperator.identity());
  }

  /**
   * @param plan when not null, groups whose records allow it come back downsampled from the rollup
   *     tier ({@link JoinedSeries#downsampled}); the others joined from their records as always
   * @param each applied to each series as soon as it is joined, on the core that joined it (a cut
   *     to a range query's steps: done after the join on the request's thread alone, it was a fifth
   *     of a {@code sum by} over P4's 117 series, and every series' points were held until then)
   */
  public List<JoinedSeries> collect(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join, boolean keysOnly, boolean summarize, RollupPlan plan, RollupSource rollups,
      UnaryOperator<JoinedSeries> each) throws IOException {
    long[] points = {0};
    // a summary decodes only the groups its records' statistics cannot answer: only those count
    Map<List<String>, Group> groups = groups(searcher, queries, range, join, keysOnly, summarize || plan != null,
        summarize ? null : points);
    long toJoin = points[0]; // what the join reads: on both cores where it pays
    if (summarize) {
      for (Group group : groups.values()) {
        toJoin += group.points;
        if (!group.summarizedWithoutPoints()) {
          points[0] = countWithin(points[0], group.points);
        }
      }
      share.take(points[0]);
    }
    if (plan != null && !keysOnly) {
      addOrphans(groups, rollups, queries, plan.tier(), join, searcher, false);
    }
    List<JoinedSeries> result = new ArrayList<>(groups.size());
    if (keysOnly) {
      for (Map.Entry<List<String>, Group> entry : groups.entrySet()) {
        result.add(new JoinedSeries(entry.getKey(), entry.getValue().fields, new Points(0)));
      }
      order(result);
      return result;
    }
    List<Map.Entry<List<String>, Group>> entries = new ArrayList<>(groups.entrySet());
    JoinedSeries[] joined = new JoinedSeries[entries.size()];
    IntStream indexes = IntStream.range(0, entries.size());
    // decoding is most of a multi-series query: spread the series over the cores when it pays
    if (entries.size() > 1 && toJoin >= PARALLEL_DECODE_POINTS) {
      indexes = indexes.parallel();
    }
    indexes.forEach(i -> joined[i] = joinOne(entries.get(i).getKey(), entries.get(i).getValue(), searcher, range,
        summarize, plan, rollups, each));
    for (JoinedSeries series : joined) {
      if (series != null) {
        result.add(series);
      }
    }
    order(result);
    return result;
  }

  /**
   * One group as {@link #collect} answers it: from its records' statistics where they answer, from
   * the rollups where planned, else decoded, joined and clipped; null where the range holds none of
   * its points.
   */
  private JoinedSeries joinOne(List<String> key, Group group, SolrIndexSearcher searcher, TimeRange range,
      boolean summarize, RollupPlan plan, RollupSource rollups, UnaryOperator<JoinedSeries> each) {
    if (summarize && group.summarizable()) {
      RecordSummary summary = RecordSummary.of(group.summaryParts, group.fields, range, searcher);
      if (summary != null) {
        return each.apply(new JoinedSeries(key, group.fields, new Points(0), summary));
      }
    }
    if (plan != null && group.fields.typesWithin(NUMERIC)) {
      Points downsampled = fromRollups(group, range, plan, rollups, searcher);
      if (downsampled != null) {
        return downsampled.isEmpty() ? null
            : each.apply(new JoinedSeries(key, group.fields, downsampled, null, true, null));
      }
    }
    Points all = join(group, searcher, range);
    Points clipped = range.isAll() ? all : all.clip(range.fromNanos(), range.toNanosExclusive());
    return clipped.isEmpty() ? null : each.apply(new JoinedSeries(key, group.fields, clipped));
  }

  /** A page of a query's series in answer order, and how many series the query answers in all. */
  public record Page(List<JoinedSeries> series, int total) {}

  /**
   * The series [{@code offset}, {@code offset + rows}) of what {@link #collect} answers (no
   * rollups), in its order, and their number in all. Only the page's series are decoded, and only
   * their points count against the limit. Whether a series whose records the range cuts holds a
   * point in it is told from the records' blocks (their first timestamps, at most one block's
   * timestamps each); only where a blob was left unread is such a series decoded to tell (all of
   * them first, on both cores where it pays, as {@link #collect} decodes them). A page of ten series
   * over a whole store decoded every series before, and a store larger than the limit refused it;
   * a page over a range inside the records decoded every series to tell, and each page of an export
   * over such a range was refused where one of them was longer than the limit.
   */
  public Page collectPage(SolrIndexSearcher searcher, List<Query> queries, TimeRange range, JoinFields join,
      boolean summarize, UnaryOperator<JoinedSeries> each, int offset, int rows) throws IOException {
    Map<List<String>, Group> groups = groups(searcher, queries, range, join, false,
        dataNeed(false, summarize, range), false, null);
    List<JoinedSeries> ordered = new ArrayList<>(groups.size());
    groups.forEach((key, group) -> ordered.add(new JoinedSeries(key, group.fields, new Points(0))));
    JoinedSeries.sort(ordered);
    // series that may hold no point in the range, where their records' blocks cannot tell, are
    // decoded first, to tell (as collect decodes them)
    boolean[] holdsPoints = new boolean[ordered.size()];
    List<JoinedSeries> unknown = new ArrayList<>();
    long counted = 0;
    boolean[] holdsNone = new boolean[ordered.size()];
    for (int i = 0; i < ordered.size(); i++) {
      Group group = groups.get(ordered.get(i).joinKey());
      holdsPoints[i] = group.holdsPointsIn(range);
      if (!holdsPoints[i]) {
        // the blocks' timestamps tell most: only a group they cannot tell is decoded to tell
        Boolean told = group.tellsPointsIn(range);
        holdsPoints[i] = Boolean.TRUE.equals(told);
        holdsNone[i] = Boolean.FALSE.equals(told);
      }
      if (!holdsPoints[i] && !holdsNone[i]) {
        if (!summarize || !group.summarizedWithoutPoints()) { // a summary's other groups decode nothing
          counted = countWithin(counted, group.points);
        }
        unknown.add(ordered.get(i));
      }
    }
    share.take(counted);
    Map<List<String>, JoinedSeries> told = new HashMap<>();
    List<JoinedSeries> decodedToTell = joinAll(unknown, groups, searcher, range, summarize, each, counted);
    for (int i = 0; i < unknown.size(); i++) {
      if (decodedToTell.get(i) != null) {
        told.put(unknown.get(i).joinKey(), decodedToTell.get(i));
      }
    }
    List<JoinedSeries> page = new ArrayList<>(Math.min(rows, ordered.size()));
    List<JoinedSeries> pending = new ArrayList<>();
    long pendingPoints = 0;
    int total = 0;
    for (int i = 0; i < ordered.size(); i++) {
      JoinedSeries placeholder = ordered.get(i);
      Group group = groups.get(placeholder.joinKey());
      boolean inPage = total >= offset && total - offset < rows;
      if (holdsPoints[i]) {
        if (inPage) {
          if (!summarize || !group.summarizedWithoutPoints()) {
            counted = countWithin(counted, group.points);
            pendingPoints += group.points;
          }
          pending.add(placeholder);
          page.add(null);
        }
        total++;
      } else if (told.containsKey(placeholder.joinKey())) {
        if (inPage) {
          page.add(told.get(placeholder.joinKey()));
        }
        total++;
      }
    }
    share.take(pendingPoints);
    // a record's first and last points lie in the range: these are never null
    java.util.Iterator<JoinedSeries> decoded =
        joinAll(pending, groups, searcher, range, summarize, each, pendingPoints).iterator();
    for (int i = 0; i < page.size(); i++) {
      if (page.get(i) == null) {
        page.set(i, decoded.next());
      }
    }
    return new Page(page, total);
  }

  /** The groups of the placeholders joined as {@link #joinOne} joins them, in their order; on both cores where it pays. */
  private List<JoinedSeries> joinAll(List<JoinedSeries> placeholders, Map<List<String>, Group> groups,
      SolrIndexSearcher searcher, TimeRange range, boolean summarize, UnaryOperator<JoinedSeries> each, long points) {
    JoinedSeries[] joined = new JoinedSeries[placeholders.size()];
    IntStream indexes = IntStream.range(0, joined.length);
    if (joined.length > 1 && points >= PARALLEL_DECODE_POINTS) {
      indexes = indexes.parallel();
    }
    indexes.forEach(i -> {
      List<String> key = placeholders.get(i).joinKey();
      joined[i] = joinOne(key, groups.get(key), searcher, range, summarize, null, null, each);
    });
    return java.util.Arrays.asList(joined);
  }

  /**
   * Joined series with no more than their latest point in the range where that can be told
   * without joining them (what an instant selector needs): a record ending inside the range gives
   * its last point from its statistics ({@code end} and {@code last}, to the millisecond) without
   * its blob being read; a record reaching past the range is decoded as far as the range; buffered
   * points give their last in the range. The latest of these wins. Where that is not clear-cut
   * (two of them in the same millisecond, a record without statistics or whose last value is NaN,
   * which a stale marker is, values that are not doubles), the series comes joined and clipped as
   * by {@link #collect}: more points than asked for, never other ones.
   */
  public List<JoinedSeries> collectLatest(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join) throws IOException {
    long[] points = {0};
    RecordReader.DataNeed pastTheRange = (start, end) -> end > range.toMillis();
    Map<List<String>, Group> groups = groups(searcher, queries, range, join, false, pastTheRange, true, points);
    List<JoinedSeries> result = new ArrayList<>(groups.size());
    for (Map.Entry<List<String>, Group> entry : groups.entrySet()) {
      Group group = entry.getValue();
      Points latest = group.fields.typesWithin(DOUBLES)
          ? LatestPoint.of(group.chunks, group.live, group.fields, searcher, range) : null;
      if (latest == null) {
        Points all = join(group, searcher, range);
        latest = range.isAll() ? all : all.clip(range.fromNanos(), range.toNanosExclusive());
      }
      if (!latest.isEmpty()) {
        result.add(new JoinedSeries(entry.getKey(), group.fields, latest));
      }
    }
    order(result);
    return result;
  }

  /** Where the records are gone, the tier still holds their statistics: their rollups join their series. */
  private static void addOrphans(Map<List<String>, Group> groups, RollupSource rollups, List<Query> queries,
      String tier, JoinFields join, SolrIndexSearcher searcher, boolean windows) throws IOException {
    List<String> matched = new ArrayList<>();
    for (Group group : groups.values()) {
      group.chunks.forEach(chunk -> matched.add(chunk.id()));
    }
    for (RollupSource.Orphan orphan : rollups.orphans(queries, tier, searcher, matched, windows)) {
      Group group = groups.computeIfAbsent(join.keyOf(orphan.fields()), k -> new Group());
      group.fields.addAll(orphan.fields());
      group.orphans.add(orphan);
    }
  }

  /**
   * Per joined series in the range, its PromQL windows in the tier ({@link RollupStats#windows},
   * from {@link #tierStats}), or its points (clipped) where windows cannot answer exactly: the tier
   * cannot ({@link #tierStats} answers null, or rollups of format version 1), or a window holds NaN
   * (stale markers are NaN, and windows cannot tell which values were). Null tier: points only.
   */
  public List<JoinedSeries> collectWindows(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join, RollupPlan.Tier tier, RollupSource rollups) throws IOException {
    long[] points = {0};
    Map<List<String>, Group> groups = groups(searcher, queries, range, join, false, tier != null, points);
    if (tier != null) {
      addOrphans(groups, rollups, queries, tier.label(), join, searcher, true);
    }
    List<JoinedSeries> result = new ArrayList<>(groups.size());
    for (Map.Entry<List<String>, Group> entry : groups.entrySet()) {
      Group group = entry.getValue();
      if (tier != null && group.fields.typesWithin(NUMERIC)) {
        RollupStats stats = tierStats(group, range, tier.label(), tier.nanos(), rollups, searcher, true);
        if (stats != null && stats.windows() != null && withoutNaN(stats.windows())) {
          if (stats.windows().size() > 0) {
            result.add(new JoinedSeries(entry.getKey(), group.fields, new Points(0), null, false, stats.windows()));
          }
          continue;
        }
      }
      Points all = join(group, searcher, range);
      Points clipped = range.isAll() ? all : all.clip(range.fromNanos(), range.toNanosExclusive());
      if (!clipped.isEmpty()) {
        result.add(new JoinedSeries(entry.getKey(), group.fields, clipped));
      }
    }
    order(result);
    return result;
  }

  private static boolean withoutNaN(BucketStats windows) {
    for (int i = 0; i < windows.size(); i++) {
      if (windows.count(i) != windows.valueCount(i)) {
        return false;
      }
    }
    return true;
  }

  /** A record's, an orphaned rollup's or the buffers' run of points of a group, by time. */
  private record Run(long startMillis, long endMillis, StoredChunk stored, LiveChunk live, RollupSource.Orphan orphan) {}

  /**
   * The group downsampled as the plan says ({@link #tierStats}), or null when the tier cannot
   * answer exactly.
   */
  private static Points fromRollups(Group group, TimeRange range, RollupPlan plan, RollupSource rollups,
      SolrIndexSearcher searcher) {
    RollupStats joined = tierStats(group, range, plan.tier(), plan.tierNanos(), rollups, searcher, false);
    if (joined == null) {
      return null;
    }
    BucketStats buckets = joined.intervals().rebucket(plan.intervalNanos());
    Points downsampled = new Points(buckets.size());
    for (int b = 0; b < buckets.size(); b++) {
      downsampled.add(buckets.start(b), value(plan.aggregation(), buckets, b));
    }
    return downsampled;
  }

  /**
   * The group's statistics in a tier over the range: of its records wholly inside the range from
   * their rollup records, of the others and of buffered points from their points (clipped), of
   * rollups whose record is gone from their statistics (only the intervals wholly inside the range:
   * the others hold points outside it that can no longer be told apart). Null when the tier cannot
   * answer exactly: runs overlapping in time (a shared timestamp keeps one value), or a record
   * inside the range without its rollup (written before the tier existed, or being rewritten).
   * Without {@code windows} only the downsample intervals are read and computed (windows null).
   */
  private static RollupStats tierStats(Group group, TimeRange range, String tier, long tierNanos, RollupSource rollups,
      SolrIndexSearcher searcher, boolean windows) {
    List<Run> runs = new ArrayList<>(group.chunks.size() + group.live.size() + group.orphans.size());
    for (StoredChunk chunk : group.chunks) {
      runs.add(new Run(chunk.startMillis(), chunk.endMillis(), chunk, null, null));
    }
    for (LiveChunk live : group.live) {
      Points points = live.points();
      if (!points.isEmpty()) {
        runs.add(new Run(Math.floorDiv(points.timestamp(0), 1_000_000L),
            Math.floorDiv(points.timestamp(points.size() - 1), 1_000_000L), null, live, null));
      }
    }
    for (RollupSource.Orphan orphan : group.orphans) {
      runs.add(new Run(orphan.startMillis(), orphan.endMillis(), null, null, orphan));
    }
    runs.sort(java.util.Comparator.comparingLong(Run::startMillis));
    List<String> inside = new ArrayList<>();
    for (int r = 0; r < runs.size(); r++) {
      Run run = runs.get(r);
      if (r > 0 && run.startMillis() <= runs.get(r - 1).endMillis()) {
        return null;
      }
      if (run.stored() != null && whollyIn(run, range)) {
        inside.add(run.stored().id());
      }
    }
    Map<String, RollupStats> stats;
    try {
      stats = rollups.stats(inside, tier, windows);
    } catch (IOException e) {
      throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "reading rollups failed: " + e.getMessage(), e);
    }
    if (stats.size() < inside.size()) {
      return null;
    }
    RollupStats joined = null;
    for (Run run : runs) {
      RollupStats part;
      if (run.orphan() != null) {
        part = whollyIn(run, range) ? run.orphan().stats() : run.orphan().stats().within(range.fromMillis(),
            range.toMillis());
      } else if (run.stored() != null && whollyIn(run, range)) {
        part = stats.get(run.stored().id());
      } else {
        Points points = run.stored() != null ? run.stored().withData(searcher).decode(group.fields, range)
            : run.live().points();
        if (!range.isAll()) {
          points = points.clip(range.fromNanos(), range.toNanosExclusive());
        }
        if (points.isEmpty()) {
          continue;
        }
        part = windows ? RollupStats.of(points, tierNanos) : RollupStats.intervalsOf(points, tierNanos);
      }
      joined = joined == null ? part : joined.then(part);
    }
    return joined == null ? RollupStats.of(new Points(0), tierNanos) : joined;
  }

  private static boolean whollyIn(Run run, TimeRange range) {
    return range.isAll() || (run.startMillis() >= range.fromMillis() && run.endMillis() <= range.toMillis());
  }

  /** As the aggregation answers over the interval's points (docs/query.md). */
  private static double value(String aggregation, BucketStats buckets, int b) {
    return switch (aggregation) {
      case "min" -> buckets.min(b);
      case "max" -> buckets.max(b);
      case "sum" -> buckets.sum(b);
      case "count" -> buckets.count(b);
      case "avg" -> buckets.valueCount(b) == 0 ? Double.NaN : buckets.sum(b) / buckets.valueCount(b);
      case "first" -> buckets.first(b);
      case "last" -> buckets.last(b);
      default -> throw new IllegalArgumentException("no rollup answers " + aggregation);
    };
  }

  /**
   * A shard's part of a distributed join: per join key, each matched record's points in the
   * range with its series id and write order, unmerged, so that the coordinator can merge the
   * parts of all shards in {@link JoinOrder} as one core merges its records. Buffered points are
   * the newest of their series.
   */
  public List<SeriesPart> collectParts(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join) throws IOException {
    long[] points = {0};
    Map<List<String>, Group> groups = groups(searcher, queries, range, join, false, false, points);
    List<SeriesPart> parts = new ArrayList<>();
    for (Map.Entry<List<String>, Group> entry : groups.entrySet()) {
      Group group = entry.getValue();
      for (JoinOrder.Part<Points> part : group.parts(searcher, range, this::counted)) {
        Points clipped = range.isAll() ? part.item() : part.item().clip(range.fromNanos(), range.toNanosExclusive());
        if (!clipped.isEmpty()) {
          parts.add(new SeriesPart(entry.getKey(), group.fields, part.seriesId(), part.writeOrder(), clipped));
        }
      }
    }
    return parts;
  }

  /**
   * The matched records and buffered series by join key; {@code points} counts the points to decode
   * against the limit (null: each group counts its own, {@link Group#points}).
   */
  private Map<List<String>, Group> groups(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join, boolean keysOnly, boolean summarize, long[] points) throws IOException {
    return groups(searcher, queries, range, join, keysOnly, dataNeed(keysOnly, summarize, range), !summarize, points);
  }

  /** @param decodeCut whether a record the range cuts is decoded as it is read ({@link StoredChunk#decodedFor}) */
  private Map<List<String>, Group> groups(SolrIndexSearcher searcher, List<Query> queries, TimeRange range,
      JoinFields join, boolean keysOnly, RecordReader.DataNeed need, boolean decodeCut, long[] points)
      throws IOException {
    DocSet docs = RecordDocs.of(searcher, queries);
    Map<List<String>, Group> groups = new HashMap<>();
    CutRecords cutRecords = new CutRecords(range, PARALLEL_DECODE_POINTS);
    RecordReader.read(searcher, docs, need, records, (docId, writeOrder, record, keptBlocks) -> {
      Group group = groups.computeIfAbsent(join.keyOf(record), k -> new Group());
      record.addFieldsTo(group.fields);
      if (keysOnly) {
        return;
      }
      long start = record.startMillis();
      long end = record.endMillis();
      long within = pointsWithin(record.count(), start, end, range);
      group.points += within;
      if (points != null) {
        points[0] = countWithin(points[0], within);
      }
      StoredChunk chunk = new StoredChunk(record.id(), docId, writeOrder, record.blob(), start, end, record.stats(),
          record.blob() == null ? null : record::blockStats, keptBlocks);
      // a record the range cuts is decoded while the records are read: its points in range are
      // fewer than its blob, which is let go soon instead of being held until the join
      boolean cut = !range.isAll() && (start < range.fromMillis() || end > range.toMillis());
      if (record.blob() != null && cut && decodeCut) {
        cutRecords.add(group.chunks, chunk, group.fields, record.count());
      } else {
        group.chunks.add(chunk);
      }
    });
    cutRecords.decode();
    // after the stored records: points flushed meanwhile are still among the buffered ones
    for (LiveChunk live : LiveMatcher.matching(searcher, queries, range)) {
      if (keysOnly) {
        groups.computeIfAbsent(join.keyOf(live.fields()), k -> new Group()).fields.addAll(live.fields());
        continue;
      }
      if (points != null) {
        points[0] = countWithin(points[0], live.points().size());
      }
      Group group = groups.computeIfAbsent(join.keyOf(live.fields()), k -> new Group());
      group.points += live.points().size();
      group.fields.addAll(live.fields());
      group.live.add(live);
    }
    if (points != null) {
      // all at once, waiting for room, before the join decodes them (the records the range cuts were
      // decoded as they were read: they hold only the range's points, within the query's own limit)
      share.take(points[0]);
    }
    return groups;
  }

  /** The type whose records' last statistic is their last point's value itself. */
  private static final Set<String> DOUBLES = Set.of(SeriesKey.METRIC);

  /** Types whose record statistics are those of their values (strings have none); every record has a type. */
  private static final Set<String> NUMERIC = Set.of(SeriesKey.METRIC, ValueType.LONG.typeName());

  /**
   * Summaries take the statistics of records wholly inside the range, so their blobs are left
   * unread; should the group need its points after all (overlapping records, buffered points),
   * {@link #join} reads them then.
   */
  private static RecordReader.DataNeed dataNeed(boolean keysOnly, boolean summarize, TimeRange range) {
    if (keysOnly || (summarize && range.isAll())) {
      return RecordReader.DataNeed.NONE;
    }
    if (!summarize) {
      return RecordReader.DataNeed.ALL;
    }
    return (start, end) -> start < range.fromMillis() || end > range.toMillis();
  }

  /**
   * Array elements decoded by this query (a collector serves one request): an array point holds up
   * to thousands of numbers, so its elements count against the same limit as points do. A record
   * holds at most 2^20 of them, so a query stops within a record of the limit.
   */
  private final java.util.concurrent.atomic.AtomicLong decodedElements = new java.util.concurrent.atomic.AtomicLong();

  private Points counted(Points decoded) {
    if (decoded.type() == io.chronix.core.series.ValueType.ARRAY) {
      long elements = 0;
      for (int i = 0; i < decoded.size(); i++) {
        elements += decoded.array(i).length;
      }
      if (decodedElements.addAndGet(elements) > maxDecodedPoints) {
        throw DecodedPointsLimit.exceeded(maxDecodedPoints, "decodes", "array elements");
      }
      share.take(elements);
    }
    return decoded;
  }

  /**
   * About the points of a record that lie in the range, told before it is decoded: all of them in
   * a record wholly inside, else the share of its points its overlap is of its span, and one
   * more. Counting the whole record that a range cuts refused an instant query over 10,000 series
   * (each record's last minutes) as more than 5 M points. Only cut records are decoded only in
   * part, so only they are counted in part; their points lie evenly enough for a limit on memory.
   */
  static long pointsWithin(long count, long startMillis, long endMillis, TimeRange range) {
    if (range.isAll() || startMillis >= range.fromMillis() && endMillis <= range.toMillis() || endMillis <= startMillis) {
      return count;
    }
    long overlap = Math.min(endMillis, range.toMillis()) - Math.max(startMillis, range.fromMillis());
    if (overlap < 0) {
      return 0;
    }
    double share = overlap / ((double) endMillis - startMillis);
    return Math.min(count, (long) Math.ceil(count * share) + 1);
  }

  /** The query's count with {@code more} points, within its limit. */
  private long countWithin(long counted, long more) {
    long points = counted + more;
    if (points > maxDecodedPoints) {
      throw DecodedPointsLimit.exceeded(maxDecodedPoints, "matches", "points");
    }
    return points;
  }

  /**
   * Merges a group's records in join order ({@link JoinOrder}): where two hold the same
   * timestamp, the later one in that order wins.
   */
  private Points join(Group group, SolrIndexSearcher searcher, TimeRange range) {
    if (group.chunks.size() == 1 && group.live.isEmpty()) {
      return counted(group.chunks.get(0).withData(searcher).decode(group.fields, range));
    }
    List<JoinOrder.Part<Points>> parts = group.parts(searcher, range, this::counted);
    JoinOrder.sort(parts);
    List<Points> decoded = new ArrayList<>(parts.size());
    // each part cut to the range first: the merge then handles only the points asked for
    // (which write wins is decided per timestamp, so cutting before or after gives one answer)
    parts.forEach(part -> decoded.add(range.isAll() || !part.item().isSorted() ? part.item()
        : part.item().clip(range.fromNanos(), range.toNanosExclusive())));
    return SeriesMerge.merge(decoded);
  }

  private static final class Group {
    final SeriesFields fields = new SeriesFields();
    final List<StoredChunk> chunks = new ArrayList<>();
    /** Buffered points of matching series, each sorted. */
    final List<LiveChunk> live = new ArrayList<>();
    /** Rollups of the planned tier whose records are gone. */
    final List<RollupSource.Orphan> orphans = new ArrayList<>();
    /** About the points its records and buffered series hold in the range ({@link #pointsWithin}). */
    long points;

    /**
     * Whether the range surely holds a point of the group, told without decoding: a record's first
     * and last points lie at its start and end, so a record whose start or end lies in the range
     * has a point there. False where it cannot be told so (buffered points, a range inside one
     * record's span).
     */
    boolean holdsPointsIn(TimeRange range) {
      for (StoredChunk chunk : chunks) {
        if (range.isAll() || range.contains(chunk.startMillis()) || range.contains(chunk.endMillis())) {
          return true;
        }
      }
      return false;
    }

    /**
     * Whether the range holds a point of the group, told from the records' blocks and the buffered
     * points without decoding any values (no record or buffered point is taken away by the join, so
     * the group has a point where one of them has); null where a record's blob was left unread.
     */
    Boolean tellsPointsIn(TimeRange range) {
      for (LiveChunk buffered : live) {
        if (buffered.points().holdsTimestampIn(range.fromNanos(), range.toNanosExclusive())) {
          return true;
        }
      }
      boolean unknown = false;
      for (StoredChunk chunk : chunks) {
        Boolean holds = chunk.holdsPointIn(fields, range);
        if (holds == null) {
          unknown = true;
        } else if (holds) {
          return true;
        }
      }
      return unknown ? null : false;
    }

    /**
     * Whether a summary answers this group from its records' statistics ({@link RecordSummary}),
     * decoding nothing but the blocks of records the range cuts: numeric, records that each have
     * statistics, buffered points after them all (records that overlap still have their timestamps
     * read, {@link RecordSummary#of}). The others are joined from their points.
     */
    boolean summarizable() {
      if (!partsTold) { // asked when counting and again when joining: the records are sorted once
        List<Points> buffered = new ArrayList<>(live.size());
        live.forEach(chunk -> buffered.add(chunk.points()));
        summaryParts = fields.typesWithin(NUMERIC) ? RecordSummary.Parts.of(chunks, buffered) : null;
        partsTold = true;
      }
      return summaryParts != null;
    }

    /**
     * Whether a summary answers this group without ever joining its points: counted against the
     * decoded-points limit otherwise. Records that overlap may be joined after all, where their
     * timestamps meet.
     */
    boolean summarizedWithoutPoints() {
      return summarizable() && !summaryParts.overlapping();
    }

    /** What {@link #summarizable} found, once told; the group's records and buffered points are all known by then. */
    private RecordSummary.Parts summaryParts;
    private boolean partsTold;

    /**
     * Every record's points in the range (records out of time order whole) with what orders them in
     * the join; buffered points are the newest of their series.
     */
    List<JoinOrder.Part<Points>> parts(SolrIndexSearcher searcher, TimeRange range,
        java.util.function.UnaryOperator<Points> counted) {
      List<JoinOrder.Part<Points>> parts = new ArrayList<>(chunks.size() + live.size());
      for (StoredChunk chunk : chunks) {
        parts.add(new JoinOrder.Part<>(RecordSchema.seriesIdOf(chunk.id()), chunk.version(),
            counted.apply(chunk.withData(searcher).decode(fields, range))));
      }
      for (LiveChunk buffered : live) {
        parts.add(new JoinOrder.Part<>(RecordSchema.seriesId(buffered.key()), Long.MAX_VALUE, buffered.points()));
      }
      return parts;
    }
  }
}
