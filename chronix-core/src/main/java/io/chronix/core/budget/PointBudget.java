package io.chronix.core.budget;

/**
 * The points that the requests in flight hold at once, bounded together: what each request's own
 * limit cannot bound (four queries of 4.4 M points at once exhausted the launcher's heap where one
 * of 8.8 M did not, docs/benchmarks.md). A request takes points through its {@link Lease} before
 * it makes them and gives them all back when it ends. Where the others leave too little, a lease
 * waits up to its wait for them to give back enough if it holds no points yet, or if it is the
 * oldest of the leases that hold some; any other is refused at once. So no two requests wait for
 * each other, and of several large requests at once the oldest goes on while the younger ones
 * fail and give back what they held (refused at once, all four of four such queries had failed).
 */
public final class PointBudget {

  private final long maxPoints;
  /** Guarded by this. */
  private long taken;
  /** The leases that hold points, by the order they first took some. Guarded by this. */
  private final java.util.TreeMap<Long, Lease> holders = new java.util.TreeMap<>();
  /** Guarded by this. */
  private long tickets;

  /** Bytes of heap a point is given by {@link #pointsForHeap}. */
  public static final long HEAP_BYTES_A_POINT = 64;
  /** Where the JVM reports no heap limit. */
  private static final long UNBOUNDED_HEAP_POINTS = 50_000_000L;

  /**
   * The points a heap of {@code maxHeapBytes} gives one query and all queries in flight: one for
   * every 64 bytes. A point takes 16 bytes decoded and about as much again while it is merged or
   * answered, so the points take at most about a quarter of the heap; the launcher's 384 MB heap
   * held 8.8 M decoded points beside the buffers and the record cache, but not 11.8 M
   * (docs/benchmarks.md). 50 M where the JVM reports no limit.
   */
  public static long pointsForHeap(long maxHeapBytes) {
    return maxHeapBytes == Long.MAX_VALUE ? UNBOUNDED_HEAP_POINTS : maxHeapBytes / HEAP_BYTES_A_POINT;
  }

  /** {@link #pointsForHeap} of this JVM's maximum heap. */
  public static long pointsForThisHeap() {
    return pointsForHeap(Runtime.getRuntime().maxMemory());
  }

  public PointBudget(long maxPoints) {
    if (maxPoints <= 0) {
      throw new IllegalArgumentException("a point budget needs room for a point, not " + maxPoints);
    }
    this.maxPoints = maxPoints;
  }

  public long maxPoints() {
    return maxPoints;
  }

  /** Points the leases hold now. */
  public synchronized long taken() {
    return taken;
  }

  /** A request's share, empty at first; closing it gives back what it took. */
  public Lease lease() {
    return new Lease(this);
  }

  /** Called with the lease's monitor held (the lease's, then the budget's: always in that order). */
  private synchronized boolean take(Lease lease, long points, long waitMillis) {
    long deadline = System.nanoTime() + waitMillis * 1_000_000L;
    while (taken + points > maxPoints) {
      boolean mayWait = lease.held == 0 || holders.firstKey() == lease.ticket;
      long left = (deadline - System.nanoTime()) / 1_000_000L;
      if (!mayWait || left <= 0 || points > maxPoints) {
        return false;
      }
      try {
        wait(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    taken += points;
    if (lease.held == 0) {
      lease.ticket = ++tickets;
      holders.put(lease.ticket, lease);
    }
    return true;
  }

  private synchronized void giveBack(Lease lease) {
    taken -= lease.held;
    holders.remove(lease.ticket);
    notifyAll();
  }

  /** One request's points; its takes may come from several threads. */
  public static final class Lease implements AutoCloseable {

    private final PointBudget budget;
    /** Guarded by this. */
    private long held;
    /** When it first took points, among the budget's leases: the lowest holder may wait. Guarded by this. */
    private long ticket;

    private Lease(PointBudget budget) {
      this.budget = budget;
    }

    /**
     * Takes {@code points}, waiting up to {@code waitMillis} for room where the lease holds none yet
     * or is the oldest that holds some.
     *
     * @return false where the requests in flight leave too little (nothing taken)
     */
    public synchronized boolean take(long points, long waitMillis) {
      if (points <= 0) {
        return true;
      }
      if (!budget.take(this, points, waitMillis)) {
        return false;
      }
      held += points;
      return true;
    }

    /** Points this lease holds. */
    public synchronized long held() {
      return held;
    }

    /** What refusing {@code points} says: what the requests in flight hold, what this one would, the bound. */
    public String refusal(long points) {
      return "the requests in flight hold " + budget.taken() + " points, and this one would hold " + (held() + points)
          + ": more than " + budget.maxPoints + " at once";
    }

    @Override
    public synchronized void close() {
      if (held > 0) {
        budget.giveBack(this);
      }
      held = 0;
    }
  }
}
