package io.chronix.ingest.buffer;

import io.chronix.core.live.LiveSeries;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.wal.SegmentLedger;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Per-series point buffers in a hash map: adding a point costs the same however many series there
 * are. A buffer is handed to the {@link ChunkSink} when it is full (points or bytes), when it is
 * old, and on {@link #flushAll}. Full buffers are written on the given executor so that a request
 * does not wait for the store; a write that fails puts its points back ({@link ChunkWrites}).
 *
 * <p>Each buffer pins the oldest write-ahead-log segment its points came from in the
 * {@link SegmentLedger}; the pin goes with the chunk to the store and is released by the commit
 * after the write ({@link #commit}), so the ledger knows which segments are still needed.
 *
 * <p>Queries in the same process can see points before they are searchable as records
 * ({@link #snapshot()}); with {@link #trackOutgoing} that includes chunks on their way to the store
 * and, for the store's search lag, chunks just written.
 */
public final class SeriesBuffers implements LiveSeries {

  private final Map<SeriesKey, SeriesBuffer> buffers = new ConcurrentHashMap<>();
  /** Guard the buffers: every buffer of a key is guarded by the key's stripe. */
  private final BufferLocks locks = new BufferLocks();
  /** Each stripe's staged points, guarded by the stripe's lock. */
  private final StagedPoints[] staging = new StagedPoints[BufferLocks.STRIPES];
  /** Runs of a batch up to this long are staged (longer ones are cheap to add at once). */
  private static final int STAGED_RUN = 4;
  /**
   * A stripe's staged points are put into their buffers once they are this many: a query settles
   * what is staged before it reads (at most 64 stripes of this), and the 10,000-series stream ran
   * as fast with 1,024 as with 4,096.
   */
  private static final int STAGED_POINTS = 1024;
  /** The series whose buffers hold points searches may not see yet. */
  private final UnsearchableSeries unsearchable = new UnsearchableSeries();
  private final int maxPoints;
  private final long maxBytes;
  private final long maxAgeNanos;
  private final LongSupplier clock;
  private final BufferTotals totals = new BufferTotals();
  private final ChunkWrites writes;
  private final SegmentLedger ledger;
  private volatile long idleReleaseNanos = Long.MAX_VALUE;
  private volatile boolean cutting = true;
  private volatile boolean tracking;
  private volatile long searchLagNanos;

  public SeriesBuffers(int maxPoints, long maxBytes, Duration maxAge, ChunkSink sink, Executor fullBufferWriter,
      SegmentLedger ledger) {
    this(maxPoints, maxBytes, maxAge, sink, System::nanoTime, fullBufferWriter, ledger);
  }

  SeriesBuffers(int maxPoints, long maxBytes, Duration maxAge, ChunkSink sink, LongSupplier clock, Executor fullBufferWriter,
      SegmentLedger ledger) {
    this.ledger = ledger;
    this.maxPoints = maxPoints;
    this.maxBytes = maxBytes;
    this.maxAgeNanos = maxAge.toNanos();
    this.clock = clock;
    this.writes = new ChunkWrites(sink, fullBufferWriter, ledger, totals, unsearchable, clock);
    for (int i = 0; i < staging.length; i++) {
      staging[i] = new StagedPoints();
    }
  }

  /** Adds a point that no log holds (tests, tools). */
  public void add(SeriesKey key, long timestamp, double value) {
    add(key, timestamp, value, SeriesBuffer.NO_SEGMENT);
  }

  /**
   * Buffers that stay empty this long are let go (their key and arrays with them); a series that
   * sends again gets a new one. Bounds the memory of series that come and go.
   */
  public void releaseIdleAfter(Duration idle) {
    idleReleaseNanos = idle.toNanos();
  }

  /** Adds a point of a double (or boolean, 0 or 1) series logged in the given log segment. */
  public void add(SeriesKey key, long timestamp, double value, long segment) {
    addRun(key, new OnePoint(timestamp, value, 0, null, null), 0, 1, segment);
  }

  public void addLong(SeriesKey key, long timestamp, long value, long segment) {
    addRun(key, new OnePoint(timestamp, 0, value, null, null), 0, 1, segment);
  }

  public void addText(SeriesKey key, long timestamp, String value, long segment) {
    addRun(key, new OnePoint(timestamp, 0, 0, value, null), 0, 1, segment);
  }

  public void addArray(SeriesKey key, long timestamp, double[] value, long segment) {
    addRun(key, new OnePoint(timestamp, 0, 0, null, value), 0, 1, segment);
  }

  /** A single point as columns: for callers outside the batch path (tools, tests). */
  private record OnePoint(long ts, double v, long l, String t, double[] a) implements PointColumns {
    @Override
    public long timestamp(int index) {
      return ts;
    }

    @Override
    public double value(int index) {
      return v;
    }

    @Override
    public long longValue(int index) {
      return l;
    }

    @Override
    public String text(int index) {
      return t;
    }

    @Override
    public double[] array(int index) {
      return a;
    }
  }

  /** A series' buffer with every staged point in it, or null (tests look at what it counts). */
  SeriesBuffer bufferOf(SeriesKey key) {
    settleAll();
    return buffers.get(key);
  }

  /** The lock stripes (tests hold one to see a batch pass over it). */
  BufferLocks locks() {
    return locks;
  }

  /**
   * Adds points {@code from} (inclusive) to {@code to} of one series, logged in the given segment:
   * one lookup and one lock for the run, as long as the buffer does not fill on the way.
   */
  public void addRun(SeriesKey key, PointColumns run, int from, int to, long segment) {
    Tally tally = new Tally(clock.getAsLong());
    int stripe = BufferLocks.stripeOf(key.hashCode());
    synchronized (locks.stripe(stripe)) {
      settle(staging[stripe], tally); // the series' staged points go first
      addRun(key, null, run, null, from, to, segment, tally);
    }
    tally.settle();
  }

  /**
   * Adds every point of a batch logged in the given segment, all of a series' points at once (in
   * the order they came): agents send one line per host with many fields, so a batch's points of
   * one series are seldom next to each other, and a lookup and a lock a point were most of the
   * buffers' cost. The series are taken a lock stripe at a time ({@link BufferLocks}). The shared
   * counters are updated once a batch: two request threads adding to them once a point made their
   * cache line travel between the cores.
   */
  public void addAll(SeriesBatch batch, long segment) {
    addAll(batch, segment, null);
  }

  /**
   * As {@link #addAll(SeriesBatch, long)}, starting from the buffers {@link #resolve} found for
   * the batch's series (null: look them up here).
   */
  public void addAll(SeriesBatch batch, long segment, Resolved resolved) {
    Runs runs = Runs.of(batch);
    BufferLocks.Groups groups = locks.group(batch);
    long now = clock.getAsLong();
    writes.pacing().batchAdded(now);
    Tally tally = new Tally(now);
    int count = groups.count();
    int[] passed = null; // groups whose stripe another batch held when this one came to it
    int passedCount = 0;
    for (int g = 0; g < count; g++) {
      if (g < count - 1 && locks.isBusy(groups.stripe(g))) {
        if (passed == null) {
          passed = new int[count];
        }
        passed[passedCount++] = g;
        continue;
      }
      addGroup(batch, segment, resolved, runs, groups, g, tally);
    }
    for (int i = 0; i < passedCount; i++) {
      addGroup(batch, segment, resolved, runs, groups, passed[i], tally);
    }
    tally.settle();
  }

  /** The batch's series of one lock stripe, under its lock; full chunks go out after it. */
  private void addGroup(SeriesBatch batch, long segment, Resolved resolved, Runs runs, BufferLocks.Groups groups,
      int g, Tally tally) {
    int stripe = groups.stripe(g);
    StagedPoints staged = staging[stripe];
    synchronized (groups.lock(g)) {
      locks.markBusy(stripe, true);
      try {
        for (int i = groups.start(g); i < groups.end(g); i++) {
          int s = groups.series(i);
          SeriesHandle handle = batch.handle(s);
          int from = runs.starts[s];
          int to = runs.starts[s + 1];
          SeriesBuffer found = resolved != null ? resolved.buffers[s] : null;
          // staged only when resolved to a buffer that is still in use: a series without one gets
          // it now, so that the budget counts it as active (the resolve just read the buffer, so
          // asking is cheap); unresolved batches (the log's replay) go straight in
          if (found != null && !found.isRetired() && to - from <= STAGED_RUN
              && StagedPoints.stages(handle.valueType())) {
            stage(staged, handle, batch, runs.order, from, to, segment, tally);
          } else {
            settle(staged, tally); // the series' staged points go first
            SeriesBuffer last = addRun(handle.key(), found, batch, runs.order, from, to, segment, tally);
            if (handle.buffer != last) {
              handle.buffer = last;
            }
          }
        }
        if (staged.size() >= STAGED_POINTS) {
          settle(staged, tally);
        }
      } finally {
        locks.markBusy(stripe, false);
      }
    }
    tally.handOverFull(); // outside the lock: the writer takes it again when the chunk is written
  }

  /**
   * A batch's points in order of their series: series {@code s} holds {@code order[starts[s]]} to
   * {@code order[starts[s + 1] - 1]}, or without an order (null) points {@code starts[s]} to
   * {@code starts[s + 1] - 1} when each series' points are next to each other already (files and
   * exporters send a series at a time).
   */
  private record Runs(int[] order, int[] starts) {
    static Runs of(SeriesBatch batch) {
      int size = batch.size();
      int seriesCount = batch.seriesCount();
      int[] starts = new int[seriesCount + 1];
      boolean grouped = true; // series are numbered as they first come: grouped, they come in order
      int previous = 0;
      for (int i = 0; i < size; i++) {
        int series = batch.seriesOf(i);
        starts[series + 1]++;
        if (series != previous) {
          grouped &= series == previous + 1;
          previous = series;
        }
      }
      for (int s = 0; s < seriesCount; s++) {
        starts[s + 1] += starts[s];
      }
      if (grouped) {
        return new Runs(null, starts);
      }
      int[] order = new int[size];
      int[] filled = java.util.Arrays.copyOf(starts, seriesCount);
      for (int i = 0; i < size; i++) {
        order[filled[batch.seriesOf(i)]++] = i;
      }
      return new Runs(order, starts);
    }
  }

  /**
   * Sets a short run of a series that has a buffer aside in its stripe's staging; counted as
   * buffered at once. Called under the stripe's lock.
   */
  private void stage(StagedPoints staged, SeriesHandle handle, PointColumns run, int[] order, int from, int to,
      long segment, Tally tally) {
    long pinned = staged.segment();
    staged.arrive(segment, tally.now);
    if (staged.segment() != pinned) {
      ledger.pin(staged.segment());
      ledger.unpin(pinned);
    }
    boolean isLong = handle.valueType() == ValueType.LONG;
    for (int i = from; i < to; i++) {
      int point = order == null ? i : order[i];
      staged.add(handle, run.timestamp(point),
          isLong ? run.longValue(point) : Double.doubleToRawLongBits(run.value(point)));
    }
    tally.points += to - from;
    tally.bytes += (to - from) * BufferMemory.NUMERIC_POINT;
  }

  /**
   * Moves a stripe's staged points into their buffers, as a batch that arrived when the oldest of
   * them did; they were counted when staged. Called under the stripe's lock; full chunks go to the
   * given tally.
   */
  private void settle(StagedPoints staged, Tally tally) {
    if (staged.isEmpty()) {
      return;
    }
    tally.count(); // what a full chunk's write subtracts must be counted before
    staged.group();
    Runs runs = Runs.of(staged);
    Tally settling = new Tally(staged.firstArrivalNanos(), true);
    for (int s = 0; s < staged.seriesCount(); s++) {
      SeriesHandle handle = staged.handle(s);
      SeriesBuffer last = addRun(handle.key(), handle.buffer, staged, runs.order, runs.starts[s], runs.starts[s + 1],
          staged.segment(), settling);
      if (handle.buffer != last) {
        handle.buffer = last;
      }
    }
    settling.count(); // from a point's share to what the packed arrays grew by
    tally.adoptFull(settling);
    ledger.unpin(staged.segment()); // the buffers pin it now
    staged.clear();
  }

  /** Moves every stripe's staged points into their buffers: before anything reads the buffers. */
  private void settleAll() {
    Tally tally = new Tally(clock.getAsLong());
    for (int stripe = 0; stripe < BufferLocks.STRIPES; stripe++) {
      StagedPoints staged = staging[stripe];
      synchronized (locks.stripe(stripe)) {
        settle(staged, tally);
      }
      tally.handOverFull();
    }
    tally.settle();
  }

  /**
   * A batch's series looked up once, for the budget check (which of them are new) and for
   * {@link #addAll(SeriesBatch, long, Resolved)}, which then starts from the buffers found rather
   * than looking each series up again: with ten thousand series in a batch, every lookup misses
   * the caches. A buffer that is let go in between is looked up anew there.
   */
  public static final class Resolved {
    private final SeriesBuffer[] buffers;
    private final int newSeries;

    private Resolved(SeriesBuffer[] buffers, int newSeries) {
      this.buffers = buffers;
      this.newSeries = newSeries;
    }

    /** Whether series {@code series} of the batch had a buffer when it was looked up. */
    public boolean isActive(int series) {
      return buffers[series] != null;
    }

    /** How many of the batch's series had no buffer. */
    public int newSeries() {
      return newSeries;
    }
  }

  /**
   * Looks up the buffers of a batch's series as they are now; a series' handle remembers its
   * buffer from the last request, which saves the lookup unless the buffer was let go since.
   */
  public Resolved resolve(SeriesBatch batch) {
    SeriesBuffer[] found = new SeriesBuffer[batch.seriesCount()];
    int absent = 0;
    for (int s = 0; s < found.length; s++) {
      SeriesHandle handle = batch.handle(s);
      SeriesBuffer buffer = handle.buffer;
      if (buffer == null || buffer.isRetired()) { // unlocked: a hint, the append looks again under the lock
        buffer = buffers.get(handle.key());
        if (buffer != null) {
          handle.buffer = buffer;
        }
      }
      found[s] = buffer;
      if (buffer == null) {
        absent++;
      }
    }
    return new Resolved(found, absent);
  }

  /**
   * Points {@code order[from]} to {@code order[to - 1]} of one series, or {@code from} to
   * {@code to - 1} without an order; returns the buffer the last of them went to. Called under the
   * series' lock.
   */
  private SeriesBuffer addRun(SeriesKey key, SeriesBuffer found, PointColumns run, int[] order, int from, int to,
      long segment, Tally tally) {
    int next = appendUntilFull(key, found, segment, run, order, from, to, tally);
    while (next < to) { // the buffer filled on the way: the rest goes to its successor
      next = appendUntilFull(key, null, segment, run, order, next, to, tally);
    }
    return tally.lastBuffer;
  }

  /**
   * Points and bytes added and not yet counted in {@link #buffered} and {@link #memory}, and full
   * buffers taken out under a lock, to be handed to the writer once it is released.
   */
  private final class Tally {
    /** The batch's arrival time: one clock reading for all its series. */
    final long now;
    /** Whether its points were counted before (staged points being put into their buffers). */
    private final boolean counted;
    long points;
    long bytes;
    /** The buffer the last run's last point went to. */
    SeriesBuffer lastBuffer;
    private List<ChunkWrites.Taken> full;

    Tally(long now) {
      this(now, false);
    }

    Tally(long now, boolean counted) {
      this.now = now;
      this.counted = counted;
    }

    void full(SeriesKey key, SeriesBuffer buffer, SeriesBuffer.Drained drained) {
      if (full == null) {
        full = new ArrayList<>(2);
      }
      full.add(new ChunkWrites.Taken(key, buffer, drained));
    }

    /** Takes over the full chunks of a tally whose points were counted before (staged points). */
    void adoptFull(Tally other) {
      if (other.full != null) {
        if (full == null) {
          full = other.full;
        } else {
          full.addAll(other.full);
        }
        other.full = null;
      }
    }

    void handOverFull() {
      if (full != null) {
        for (ChunkWrites.Taken chunk : full) {
          writes.handOver(chunk);
        }
        full = null;
      }
    }

    /** Hands over full chunks and counts; outside the lock. */
    void settle() {
      count();
      handOverFull();
    }

    void count() {
      if (counted) {
        // staged numeric points were counted at the budget's share each; now as their arrays hold them
        totals.addMemory(bytes - points * BufferMemory.NUMERIC_POINT);
        points = 0;
        bytes = 0;
        return;
      }
      totals.addPoints(points);
      points = 0;
      totals.addMemory(bytes);
      bytes = 0;
    }
  }

  /**
   * Appends up to {@code to} or until the buffer is full (then takes it out for the writer);
   * returns where it stopped. Called under the series' lock, which is every buffer's of its key.
   */
  private int appendUntilFull(SeriesKey key, SeriesBuffer found, long segment, PointColumns run, int[] order, int from,
      int to, Tally tally) {
    SeriesBuffer buffer = found;
    if (buffer == null || buffer.isRetired()) { // let go since it was looked up: take the new one
      buffer = buffers.get(key);
      if (buffer == null) {
        buffer = buffers.computeIfAbsent(key, this::newBuffer);
      }
    }
    int next = from;
    if (!buffer.hasUnsearchable()) {
      // else it is in already (follow keeps it so under this lock): after each chunk written,
      // a fleet's series came here with an empty buffer and a copy outgoing, a lookup each
      unsearchable.add(key);
    }
    long pinned = buffer.oldestSegment();
    long now = tally.now;
    long bytes = 0;
    boolean numeric = buffer.packed() != null;
    if (numeric) {
      // the run's room made at once, then a plain copy, then the packed array counted as it grew
      // (per point, this bookkeeping was a fifth of the stream's path)
      int take = to - next;
      if (cutting) {
        take = Math.min(take, buffer.pointsUntilFull(maxPoints, maxBytes, BufferMemory.NUMERIC_POINT));
      }
      buffer.arrive(now, segment, 0); // before the append: it looks at emptiness
      run.appendNumeric(buffer.packed(), order, next, next + take);
      next += take;
      bytes += buffer.countPacked();
    }
    Points points = buffer.points();
    while (!numeric && next < to) { // strings and arrays: each point its own cost
      int point = order == null ? next : order[next];
      long pointBytes = BufferMemory.point(points.type(), run, point);
      buffer.arrive(now, segment, pointBytes); // before the append: it looks at emptiness
      if (points.type() == ValueType.ARRAY) {
        points.addArray(run.timestamp(point), run.array(point));
      } else {
        points.addText(run.timestamp(point), run.text(point));
      }
      bytes += pointBytes;
      next++;
      if (cutting && buffer.isFull(maxPoints, maxBytes)) {
        break;
      }
    }
    tally.bytes += bytes;
    tally.points += next - from;
    tally.lastBuffer = buffer;
    if (buffer.oldestSegment() != pinned) {
      ledger.pin(buffer.oldestSegment());
      ledger.unpin(pinned);
    }
    if (cutting && buffer.isFull(maxPoints, maxBytes)) {
      tally.count(); // the chunk's write subtracts its points: count them first
      tally.full(key, buffer, takeOut(key, buffer));
    }
    return next;
  }

  /**
   * Full chunks wait up to {@code maxDelay} for a pause in the ingest before they are written,
   * but not while the buffers hold more than {@code pressureBytes} ({@link WritePacing}).
   * {@link Duration#ZERO}: written at once (the default of this class).
   */
  public void paceWrites(Duration maxDelay, long pressureBytes) {
    writes.pace(maxDelay.isZero() ? WritePacing.NONE : new WritePacing(maxDelay.toNanos(), pressureBytes, clock));
  }

  /**
   * Keeps taken-out chunks in {@link #snapshot()} until searches see them: while they are written
   * and for {@code searchLag} after (the store makes writes searchable only after a while). Costs
   * a copy of every chunk and memory for the chunks of that time; off by default.
   */
  public void trackOutgoing(Duration searchLag) {
    searchLagNanos = searchLag.toNanos();
    tracking = true;
  }

  /** A commit of the store: once it returns, what was written before it began is searchable. */
  @FunctionalInterface
  public interface Commit {
    void run() throws IOException;
  }

  /**
   * Runs the commit through the ledger (which then releases the segments of what was written
   * before), then forgets the tracked chunks it made searchable, so that snapshots stop holding
   * points a search finds stored anyway (they would count twice against a query's limit).
   */
  public void commit(Commit commit) throws IOException {
    long began = clock.getAsLong();
    ledger.commit(commit::run);
    forgetWrittenBefore(began);
  }

  /**
   * Runs a commit that makes writes durable but not searchable (no new searcher): the ledger
   * releases segments, but tracked chunks stay in snapshots until the store's search lag has
   * passed, or queries would miss them in between.
   */
  public void makeDurable(Commit commit) throws IOException {
    ledger.commit(commit::run);
  }

  private void forgetWrittenBefore(long began) {
    unsearchable.forEach(key -> {
      SeriesBuffer buffer = buffers.get(key);
      if (buffer == null) {
        return;
      }
      synchronized (buffer.lock) {
        long before = buffer.retainedBytes();
        buffer.forgetWrittenBefore(began);
        totals.addMemory(buffer.retainedBytes() - before);
        unsearchable.follow(key, buffer, clock.getAsLong());
      }
    });
  }

  /** Writes every buffer whose oldest point arrived at least its series' {@link #maxAgeOf} ago. */
  public void flushOld() throws IOException {
    flush(false);
  }

  /**
   * The age at which a series' buffer is written: between half of chunk.maxAge and all of it, by a
   * share fixed per series. A fleet's agents start together: at one age for all, each round of
   * chunk.maxAge wrote every series at once (180,000 records in one flush), and their next chunks
   * started together again.
   */
  long maxAgeOf(SeriesKey key) {
    int mixed = key.hashCode() * 0x9E3779B9; // the key's hash spread over all bits
    double share = (mixed >>> 16) / 65536.0;
    return maxAgeNanos - (long) (maxAgeNanos / 2 * share);
  }

  /**
   * Writes every non-empty buffer (shutdown, explicit flush); returns when every point accepted
   * before the call is written, including full buffers already on their way.
   */
  public void flushAll() throws IOException {
    WritePacing paced = writes.pacing();
    paced.flushBegins(); // full chunks waiting for a pause in the ingest go now
    try {
      settleAll(); // full chunks it cuts are awaited as well
      writes.awaitHandedOver(); // a failed one is back in its buffer before we drain
      flush(true);
    } finally {
      paced.flushEnds();
    }
  }

  /**
   * Writes buffers, those holding the oldest points first, until the buffers' memory is at most
   * {@code targetBytes} or nothing is left to write. A steady stream into many series fills the
   * budget long before chunk.maxAge: without this, writes would be refused instead. The records
   * come out smaller; compaction merges them later.
   *
   * @return the number of buffers written
   */
  public int flushOldest(long targetBytes) throws IOException {
    settleAll();
    if (totals.memory() <= targetBytes) {
      return 0;
    }
    record Candidate(SeriesKey key, SeriesBuffer buffer, long firstArrival) {}
    List<Candidate> candidates = new ArrayList<>();
    for (Map.Entry<SeriesKey, SeriesBuffer> entry : buffers.entrySet()) {
      SeriesBuffer buffer = entry.getValue();
      synchronized (buffer.lock) {
        if (!buffer.isEmpty()) {
          candidates.add(new Candidate(entry.getKey(), buffer, buffer.firstArrivalNanos()));
        }
      }
    }
    candidates.sort(Comparator.comparingLong(Candidate::firstArrival));
    int written = 0;
    ChunkWrites.Batch batches = writes.batch(tracking);
    for (Candidate candidate : candidates) {
      if (totals.memory() - batches.leavingBytes() <= targetBytes) {
        break;
      }
      SeriesBuffer.Drained drained = null;
      synchronized (candidate.buffer().lock) {
        if (!candidate.buffer().isRetired() && !candidate.buffer().isEmpty()) {
          drained = takeOut(candidate.key(), candidate.buffer());
        }
      }
      if (drained != null) {
        batches.add(candidate.key(), candidate.buffer(), drained);
        written++;
      }
    }
    batches.finish();
    return written;
  }

  private void flush(boolean all) throws IOException {
    settleAll();
    ChunkWrites.Batch batches = writes.batch(tracking);
    for (Map.Entry<SeriesKey, SeriesBuffer> entry : buffers.entrySet()) {
      SeriesBuffer buffer = entry.getValue();
      SeriesBuffer.Drained drained = null;
      long now = clock.getAsLong();
      synchronized (buffer.lock) {
        long before = buffer.retainedBytes();
        buffer.forgetSearchable(searchLagNanos, now); // the flusher's rounds keep the copies short-lived
        totals.addMemory(buffer.retainedBytes() - before);
        if (all ? !buffer.isEmpty() : buffer.isOlderThan(maxAgeOf(entry.getKey()), now)) {
          drained = takeOut(entry.getKey(), buffer);
        } else {
          unsearchable.follow(entry.getKey(), buffer, now);
          if (buffer.isIdle(idleReleaseNanos, now)) {
            release(entry.getKey(), buffer);
          }
        }
      }
      if (drained != null) {
        batches.add(entry.getKey(), buffer, drained);
      }
    }
    batches.finish();
  }

  /**
   * Lets every buffer go that holds nothing now, idle or not: under memory pressure the keys and
   * empty arrays of series between two points are what is left to give back.
   */
  public void releaseEmpty() {
    settleAll();
    for (Map.Entry<SeriesKey, SeriesBuffer> entry : buffers.entrySet()) {
      SeriesBuffer buffer = entry.getValue();
      synchronized (buffer.lock) {
        if (!buffer.isRetired() && buffer.isIdle(0, clock.getAsLong())) {
          release(entry.getKey(), buffer);
        }
      }
    }
  }

  /** Lets an idle buffer go; called under its lock. An appender holding it sees it retired. */
  private void release(SeriesKey key, SeriesBuffer buffer) {
    buffer.retire();
    unsearchable.remove(key); // it may stay in for a while after its last point (UnsearchableSeries#follow)
    if (buffers.remove(key, buffer)) {
      totals.addSeries(-BufferMemory.series(key) - buffer.keptBytes());
    }
  }

  private SeriesBuffer newBuffer(SeriesKey key) {
    totals.addSeries(BufferMemory.series(key));
    return new SeriesBuffer(key.valueType(), clock.getAsLong(), locks.of(key.hashCode()));
  }

  /**
   * Called under the buffer's lock; the buffer's pin goes with the chunk. The chunk's points stay
   * counted until it is written; a tracked copy counts as well.
   */
  private SeriesBuffer.Drained takeOut(SeriesKey key, SeriesBuffer buffer) {
    long before = buffer.retainedBytes();
    long keptBefore = buffer.keptBytes();
    SeriesBuffer.Drained drained = buffer.drain(tracking, clock.getAsLong());
    totals.addSeries(buffer.keptBytes() - keptBefore);
    totals.addMemory(buffer.retainedBytes() - before + drained.bytes());
    unsearchable.follow(key, buffer, clock.getAsLong());
    return drained;
  }

  /**
   * While replaying the log, buffers must not be cut before {@link #filter} had its say; cutting
   * resumes with {@link #resumeCutting}.
   */
  public void pauseCutting() {
    cutting = false;
  }

  public void resumeCutting() {
    cutting = true;
  }

  /** Replaces the points of a buffer (replay drops points the store already holds). */
  public void filter(SeriesKey key, UnaryOperator<Points> filter) {
    settleAll();
    SeriesBuffer buffer = buffers.get(key);
    if (buffer == null) {
      return;
    }
    synchronized (buffer.lock) {
      int before = buffer.size();
      long bytesBefore = buffer.retainedBytes();
      Points kept = filter.apply(buffer.copy());
      ledger.unpin(buffer.replace(kept));
      totals.addMemory(buffer.retainedBytes() - bytesBefore);
      totals.addPoints(kept.size() - before);
      unsearchable.follow(key, buffer, clock.getAsLong());
    }
  }

  public List<SeriesKey> keys() {
    settleAll();
    return new ArrayList<>(buffers.keySet());
  }

  /** A copy of the buffered points of a series, in arrival order. */
  public Points snapshot(SeriesKey key) {
    settleAll();
    SeriesBuffer buffer = buffers.get(key);
    Points copy = new Points(key.valueType(), 16);
    if (buffer != null) {
      synchronized (buffer.lock) {
        buffer.copyTo(copy);
      }
    }
    return copy;
  }

  /**
   * Every series' points that searches may not see yet, copied under the series' lock: chunks
   * taken out (when tracked), oldest first, then the buffered points in arrival order.
   */
  @Override
  public List<LiveSeries.Buffered> snapshot() {
    return snapshot(key -> true);
  }

  /** As {@link #snapshot()}, for the series the filter wants; it runs outside the locks. */
  @Override
  public List<LiveSeries.Buffered> snapshot(Predicate<SeriesKey> wanted) {
    settleAll();
    List<LiveSeries.Buffered> snapshot = new ArrayList<>();
    long now = clock.getAsLong();
    unsearchable.forEach(key -> copyInto(snapshot, key, wanted, now));
    return snapshot;
  }

  /** As {@link #snapshot(Predicate)}, visiting only the series of one name. */
  @Override
  public List<LiveSeries.Buffered> snapshot(String name, Predicate<SeriesKey> wanted) {
    settleAll();
    List<LiveSeries.Buffered> snapshot = new ArrayList<>();
    long now = clock.getAsLong();
    unsearchable.forEach(name, key -> copyInto(snapshot, key, wanted, now));
    return snapshot;
  }

  /** As {@link #snapshot(String, Predicate)}, visiting only the series of that name with the attribute's value. */
  @Override
  public List<LiveSeries.Buffered> snapshot(String name, String attribute, String value, Predicate<SeriesKey> wanted) {
    settleAll();
    List<LiveSeries.Buffered> snapshot = new ArrayList<>();
    long now = clock.getAsLong();
    unsearchable.forEach(name, attribute, value, key -> copyInto(snapshot, key, wanted, now));
    return snapshot;
  }

  private void copyInto(List<LiveSeries.Buffered> snapshot, SeriesKey key, Predicate<SeriesKey> wanted, long now) {
    Points copy = unsearchable(key, wanted, now, SeriesBuffer::copyUnsearchable);
    if (copy != null) {
      snapshot.add(new LiveSeries.Buffered(key, copy));
    }
  }

  /**
   * As {@link #snapshot(String, Predicate)} (every name where null), each series' span instead of
   * its points, handed on at once.
   */
  @Override
  public void spans(String name, Predicate<SeriesKey> wanted, Consumer<LiveSeries.Span> each) {
    spans(name, key -> true, wanted, each);
  }

  /** As {@link #spans(String, Predicate, Consumer)}, asking {@code namesWanted} once a group of series with the same names. */
  @Override
  public void spans(String name, Predicate<SeriesKey> namesWanted, Predicate<SeriesKey> wanted,
      Consumer<LiveSeries.Span> each) {
    settleAll();
    unsearchable.forEach(name, namesWanted, spanOf(wanted, clock.getAsLong(), each));
  }

  /** Visits only the series with those values, by name or from the indexes by an attribute's values. */
  @Override
  public void spans(String name, String field, Set<String> values, Predicate<SeriesKey> namesWanted,
      Predicate<SeriesKey> wanted, Consumer<LiveSeries.Span> each) {
    settleAll();
    unsearchable.forEach(name, field, values, namesWanted, spanOf(wanted, clock.getAsLong(), each));
  }

  /** Hands on a wanted series' span of not yet searchable points, where it has any. */
  private Consumer<SeriesKey> spanOf(Predicate<SeriesKey> wanted, long now, Consumer<LiveSeries.Span> each) {
    return key -> {
      long[] span = unsearchable(key, wanted, now, SeriesBuffer::unsearchableSpan);
      if (span != null) {
        each.accept(new LiveSeries.Span(key, span[0], span[1]));
      }
    };
  }

  /**
   * Answered from the counts of the series with not yet searchable points, staged points settled
   * first. A series whose points became searchable since a query last visited it may still count,
   * which can only make a listing visit the series.
   */
  @Override
  public boolean everyValue(String field, Predicate<String> test) {
    settleAll();
    return unsearchable.everyValue(field, test);
  }

  /**
   * A series whose points became searchable since a query last visited it may still count. Staged
   * points are settled (each stripe's lock taken, so points written before are seen) only where no
   * series counts yet: under a load there are, and the listing that asks settles them itself next.
   */
  @Override
  public boolean hasUnsearchable() {
    if (!unsearchable.isEmpty()) {
      return true;
    }
    settleAll();
    return !unsearchable.isEmpty();
  }

  /**
   * What {@code read} makes of a wanted series' not yet searchable points, under its lock, once the
   * searchable ones are let go; null where the series is not wanted or has no buffer.
   */
  private <T> T unsearchable(SeriesKey key, Predicate<SeriesKey> wanted, long now, Function<SeriesBuffer, T> read) {
    if (!wanted.test(key)) {
      return null;
    }
    SeriesBuffer buffer = buffers.get(key);
    if (buffer == null) {
      return null;
    }
    synchronized (buffer.lock) {
      long before = buffer.retainedBytes();
      buffer.forgetSearchable(searchLagNanos, now);
      totals.addMemory(buffer.retainedBytes() - before);
      T result = read.apply(buffer);
      unsearchable.follow(key, buffer, now);
      return result;
    }
  }

  /** Points accepted but not yet written to the store (including those on their way). */
  public long bufferedPoints() {
    return totals.points();
  }

  /** Heap the buffers hold, as {@link BufferMemory} counts it: what buffer.maxBytes bounds. */
  public long memoryBytes() {
    return totals.memory();
  }

  /** The part of {@link #memoryBytes} that no write frees: the active series' keys and empty buffers. */
  public long seriesBytes() {
    return totals.seriesMemory();
  }

  /** Series with a buffer: what buffer.maxSeries bounds. */
  public int activeSeries() {
    return buffers.size();
  }

  /** Whether the series has a buffer now. */
  public boolean isActive(SeriesKey key) {
    return buffers.containsKey(key);
  }
}
