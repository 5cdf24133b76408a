package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Range answers kept for the next request of the same query and step: a dashboard asks again every
 * few seconds for a window that moved by a step or two, and evaluating all of it again was almost
 * the whole cost of a {@code rate} over many series (VictoriaMetrics keeps such answers too). A
 * request whose steps the kept answer holds takes them from it; the steps before or after it are
 * evaluated (two smaller range queries at most) and joined to it by series.
 *
 * <p>Only steps at least {@code horizon} before the clock are kept: later ones may still get
 * points. The store tells of every change to older points ({@link PointChanges}): a late write, a
 * rewrite or a delete drops every kept step at or after it, and a query evaluated while such a
 * change came keeps nothing; after a change anywhere (a restore, retention, an update through
 * Solr's own handlers) nothing is kept for {@value #SETTLE_MILLIS} ms. Only queries whose steps do
 * not depend on the range are kept ({@link StepLocal}), and only answers read from samples, not
 * from rollup tiers. A kept answer carries the warnings and infos of the evaluations it was made
 * of.
 *
 * <p>Thread-safe; the kept answers, their size and the count of changes are guarded by this
 * object, evaluations run outside it. At most {@code maxBytes} (estimated) are kept, the least
 * recently used answers going first.
 */
public final class RangeCache implements PointChanges {

  /** A kept answer is never larger than this share of the whole. */
  private static final int LARGEST_SHARE = 4;
  /**
   * After a change anywhere nothing is kept for this long: an update sent to Solr's own handlers
   * becomes visible with its soft commit (a second), after its request ended.
   */
  static final long SETTLE_MILLIS = 10_000;

  private final long maxBytes;
  private final long horizonMillis;
  private final LongSupplier clockMillis;
  private final LinkedHashMap<Key, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;
  /** Changes told so far: an evaluation that began before one keeps nothing. */
  private long changes;
  /** Until when nothing is kept (epoch milliseconds): {@link #SETTLE_MILLIS} after a change anywhere. */
  private long unsettledUntil = Long.MIN_VALUE;
  /** The latest step kept since the last change dropped steps; changes after it need no lock. */
  private volatile long latestKept = Long.MIN_VALUE;

  private final LongAdder hits = new LongAdder();
  private final LongAdder partHits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  /** How often the cache answered, and what it holds. */
  public record Stats(long hits, long partHits, long misses, long bytes, int answers) {}

  /** A query at a step grid: the grid's steps are {@code phase} past a multiple of {@code step}. */
  private record Key(Engine engine, String query, long step, long phase, Duration lookback, Duration subqueryStep) {
    // written out: a record's generated equals and hashCode run through method handles, which the
    // quick compiler does not inline
    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && Objects.equals(key.engine, engine) && Objects.equals(key.query, query)
          && key.step == step && key.phase == phase && Objects.equals(key.lookback, lookback)
          && Objects.equals(key.subqueryStep, subqueryStep);
    }

    @Override
    public int hashCode() {
      int hash = Objects.hashCode(engine) * 31 + Objects.hashCode(query);
      hash = hash * 31 + Long.hashCode(step);
      hash = hash * 31 + Long.hashCode(phase);
      return (hash * 31 + Objects.hashCode(lookback)) * 31 + Objects.hashCode(subqueryStep);
    }
  }

  /** An answer's steps from {@code start} to {@code end} (both on the grid). */
  private record Kept(long start, long end, List<QueryResult.Series> series, List<String> warnings,
      List<String> infos, long bytes) {}

  public RangeCache(long maxBytes, Duration horizon, LongSupplier clockMillis) {
    this.maxBytes = maxBytes;
    this.horizonMillis = horizon.toMillis();
    this.clockMillis = clockMillis;
  }

  /** As {@link Engine#range}, from kept steps where there are any. */
  public QueryResult range(Engine engine, String query, long start, long end, long step, QueryLimits limits) {
    Expr expr = Engine.rangeExpression(query, start, end, step, limits);
    if (!StepLocal.test(expr)) {
      return engine.range(expr, query, start, end, step, limits);
    }
    long phase = Math.floorMod(start, step);
    Key key = new Key(engine, query, step, phase, limits.lookback(), limits.subqueryStep());
    // what may be kept is settled before anything is read: a change told later is seen as one
    long keepUntil = onGrid(clockMillis.getAsLong() - horizonMillis, phase, step);
    long changesBefore;
    Kept found;
    synchronized (this) {
      changesBefore = changes;
      found = kept.get(key);
    }
    if (found == null || found.end + step < start || end + step < found.start) {
      misses.increment();
      QueryResult answer = engine.range(expr, query, start, end, step, limits);
      if (answer.tiers().isEmpty() && answer.data() instanceof QueryResult.Matrix matrix) {
        keep(key, changesBefore, start, Math.min(end, keepUntil), step, matrix.series(), answer.warnings(),
            answer.infos());
      }
      return answer;
    }
    QueryResult before = start < found.start
        ? engine.range(expr, query, start, Math.min(end, found.start - step), step, limits) : null;
    QueryResult after = end > found.end
        ? engine.range(expr, query, Math.max(start, found.end + step), end, step, limits) : null;
    if (before == null && after == null) {
      hits.increment();
      return new QueryResult(new QueryResult.Matrix(within(found.series, start, end)), found.warnings, found.infos);
    }
    if (!fromSamples(before) || !fromSamples(after)) {
      misses.increment(); // a part read a rollup tier: the whole range answers as the engine does
      return engine.range(expr, query, start, end, step, limits);
    }
    if (start <= found.end && end >= found.start) {
      partHits.increment();
    } else {
      misses.increment(); // only next to the kept steps: all evaluated, and kept with them
    }
    List<String> warnings = union(found.warnings, before, after, true);
    List<String> infos = union(found.infos, before, after, false);
    List<QueryResult.Series> joined = join(series(before), found.series, series(after));
    long from = Math.min(start, found.start);
    long to = Math.max(found.end, Math.min(end, keepUntil));
    if ((to - from) / step + 1 > limits.maxSteps()) { // kept no wider than one query may be
      from = start;
      to = Math.min(end, keepUntil);
    }
    keep(key, changesBefore, from, to, step, joined, warnings, infos);
    return new QueryResult(new QueryResult.Matrix(within(joined, start, end)), warnings, infos);
  }

  @Override
  public void changedFrom(long millis) {
    if (millis > latestKept && millis > clockMillis.getAsLong() - horizonMillis) {
      return; // after every kept step, and after every step an evaluation now running may keep
    }
    synchronized (this) {
      changes++;
      long latest = Long.MIN_VALUE;
      Iterator<Map.Entry<Key, Kept>> entries = kept.entrySet().iterator();
      while (entries.hasNext()) {
        Map.Entry<Key, Kept> entry = entries.next();
        Kept answer = entry.getValue();
        if (answer.end >= millis) {
          // a step reads no sample after itself: the steps before the change stay as they are
          long step = entry.getKey().step;
          long end = answer.start + Math.floorDiv(millis - 1 - answer.start, step) * step;
          bytes -= answer.bytes;
          if (end < answer.start) {
            entries.remove();
            continue;
          }
          List<QueryResult.Series> series = within(answer.series, answer.start, end);
          answer = new Kept(answer.start, end, series, answer.warnings, answer.infos, sizeOf(series));
          entry.setValue(answer);
          bytes += answer.bytes;
        }
        latest = Math.max(latest, answer.end);
      }
      latestKept = latest;
    }
  }

  @Override
  public synchronized void changedAll() {
    changes++;
    unsettledUntil = clockMillis.getAsLong() + SETTLE_MILLIS;
    kept.clear();
    bytes = 0;
    latestKept = Long.MIN_VALUE;
  }

  public synchronized Stats stats() {
    return new Stats(hits.sum(), partHits.sum(), misses.sum(), bytes, kept.size());
  }

  /** Keeps steps {@code from} to {@code to} of an answer, unless a change came since {@code changesBefore}. */
  private void keep(Key key, long changesBefore, long from, long to, long step, List<QueryResult.Series> series,
      List<String> warnings, List<String> infos) {
    if (to < from) {
      return;
    }
    List<QueryResult.Series> steps = within(series, from, to);
    long size = sizeOf(steps);
    if (size > maxBytes / LARGEST_SHARE) {
      return;
    }
    Kept answer = new Kept(from, to, steps, List.copyOf(warnings), List.copyOf(infos), size);
    synchronized (this) {
      if (changes != changesBefore || clockMillis.getAsLong() < unsettledUntil) {
        return; // what it read may predate the change
      }
      Kept replaced = kept.put(key, answer);
      bytes += size - (replaced == null ? 0 : replaced.bytes);
      Iterator<Kept> oldest = kept.values().iterator();
      while (bytes > maxBytes && oldest.hasNext()) {
        bytes -= oldest.next().bytes;
        oldest.remove();
      }
      if (kept.containsKey(key)) {
        latestKept = Math.max(latestKept, to);
      }
    }
  }

  /** The latest time on the grid ({@code phase} past a multiple of {@code step}) at or before {@code millis}. */
  private static long onGrid(long millis, long phase, long step) {
    return Math.floorDiv(millis - phase, step) * step + phase;
  }

  private static boolean fromSamples(QueryResult part) {
    return part == null || part.tiers().isEmpty();
  }

  private static List<QueryResult.Series> series(QueryResult part) {
    return part == null ? List.of() : ((QueryResult.Matrix) part.data()).series();
  }

  private static List<String> union(List<String> keptOnes, QueryResult before, QueryResult after, boolean warnings) {
    LinkedHashSet<String> all = new LinkedHashSet<>(keptOnes);
    for (QueryResult part : new QueryResult[] {before, after}) {
      if (part != null) {
        all.addAll(warnings ? part.warnings() : part.infos());
      }
    }
    return List.copyOf(all);
  }

  /** Series of consecutive parts of one grid, joined by labels and ordered by them. */
  private static List<QueryResult.Series> join(List<QueryResult.Series> first, List<QueryResult.Series> second,
      List<QueryResult.Series> third) {
    TreeMap<Labels, List<QueryResult.Series>> byLabels = new TreeMap<>();
    for (List<QueryResult.Series> part : List.of(first, second, third)) {
      for (QueryResult.Series s : part) {
        byLabels.computeIfAbsent(s.labels(), l -> new ArrayList<>(3)).add(s);
      }
    }
    List<QueryResult.Series> joined = new ArrayList<>(byLabels.size());
    for (Map.Entry<Labels, List<QueryResult.Series>> entry : byLabels.entrySet()) {
      List<QueryResult.Series> parts = entry.getValue();
      if (parts.size() == 1) {
        joined.add(parts.get(0));
        continue;
      }
      int size = 0;
      for (QueryResult.Series part : parts) {
        size += part.size();
      }
      long[] timestamps = new long[size];
      double[] values = new double[size];
      int at = 0;
      for (QueryResult.Series part : parts) {
        System.arraycopy(part.timestamps(), 0, timestamps, at, part.size());
        System.arraycopy(part.values(), 0, values, at, part.size());
        at += part.size();
      }
      joined.add(new QueryResult.Series(entry.getKey(), timestamps, values, size));
    }
    return joined;
  }

  /** The series' points from {@code from} to {@code to}; series without any there are left out. */
  private static List<QueryResult.Series> within(List<QueryResult.Series> series, long from, long to) {
    List<QueryResult.Series> result = new ArrayList<>(series.size());
    for (QueryResult.Series s : series) {
      int first = Points.lowerBound(s.timestamps(), s.size(), from);
      int last = Points.lowerBound(s.timestamps(), s.size(), to + 1);
      if (first == 0 && last == s.size()) {
        result.add(s);
      } else if (last > first) {
        result.add(new QueryResult.Series(s.labels(), Arrays.copyOfRange(s.timestamps(), first, last),
            Arrays.copyOfRange(s.values(), first, last), last - first));
      }
    }
    return result;
  }

  /** Heap bytes of the series, roughly: arrays, labels and the objects around them. */
  private static long sizeOf(List<QueryResult.Series> series) {
    long size = 0;
    for (QueryResult.Series s : series) {
      size += 96 + 16L * s.timestamps().length;
      Labels labels = s.labels();
      for (int i = 0; i < labels.size(); i++) {
        size += 96 + labels.name(i).length() + labels.value(i).length();
      }
    }
    return size;
  }
}
