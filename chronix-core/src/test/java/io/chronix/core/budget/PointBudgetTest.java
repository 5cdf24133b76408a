package io.chronix.core.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The points of all requests in flight within one bound: a lease takes what its request counts,
 * waits for room while it holds nothing, is refused where the others leave too little (at once
 * where it holds points already), and gives everything back on close.
 */
class PointBudgetTest {

  @Test
  void leasesShareTheBoundAndGiveBackOnClose() {
    PointBudget budget = new PointBudget(100);
    PointBudget.Lease first = budget.lease();
    PointBudget.Lease second = budget.lease();
    assertTrue(first.take(60, 0));
    assertTrue(first.take(10, 0));
    assertTrue(second.take(30, 0));
    assertEquals(100, budget.taken());
    assertFalse(second.take(1, 5_000), "a lease holding points waited or took");
    assertEquals("the requests in flight hold 100 points, and this one would hold 31: more than 100 at once",
        second.refusal(1));
    assertEquals(100, budget.taken(), "a refused take holds nothing");
    first.close();
    assertEquals(30, budget.taken());
    assertTrue(second.take(70, 0));
    second.close();
    second.close();
    assertEquals(0, budget.taken(), "closed twice, given back once");
    assertFalse(budget.lease().take(101, 0), "more than the bound, even alone");
    assertThrows(IllegalArgumentException.class, () -> new PointBudget(0));
  }

  @Test
  void aLeaseHoldingNothingWaitsForRoom() throws Exception {
    PointBudget budget = new PointBudget(100);
    PointBudget.Lease running = budget.lease();
    assertTrue(running.take(80, 0));
    PointBudget.Lease waiting = budget.lease();
    long start = System.nanoTime();
    assertFalse(waiting.take(50, 150));
    assertTrue(System.nanoTime() - start >= 140_000_000L, "gave up before its wait");
    assertTakesOnceGivenBack(budget, waiting, 50, running);
    assertEquals(50, budget.taken());
    waiting.close();
    assertEquals(0, budget.taken());
  }

  /** {@code waiting} takes {@code points} in another thread, not before {@code holding} gives its points back. */
  private static void assertTakesOnceGivenBack(PointBudget budget, PointBudget.Lease waiting, long points,
      PointBudget.Lease holding) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      long before = budget.taken();
      Future<Boolean> later = thread.submit(() -> waiting.take(points, 5_000));
      Thread.sleep(100);
      assertEquals(before, budget.taken(), "taken while the others held too much");
      holding.close(); // its request ends (the younger's failed)
      assertTrue(later.get(), "did not wait for room");
    } finally {
      thread.shutdown();
    }
  }

  /** Of two requests that hold points, the older waits for room and the younger is refused at once. */
  @Test
  void theOldestHolderWaitsAndYoungerOnesGiveWay() throws Exception {
    PointBudget budget = new PointBudget(100);
    PointBudget.Lease older = budget.lease();
    PointBudget.Lease younger = budget.lease();
    assertTrue(older.take(40, 0));
    assertTrue(younger.take(40, 0));
    long start = System.nanoTime();
    assertFalse(younger.take(30, 5_000), "the younger took or waited");
    assertTrue(System.nanoTime() - start < 1_000_000_000L, "the younger waited");
    assertTakesOnceGivenBack(budget, older, 30, younger);
    assertEquals(70, budget.taken());
    older.close();
    assertEquals(0, budget.taken());
    PointBudget.Lease next = budget.lease();
    assertTrue(next.take(10, 0));
    assertFalse(next.take(95, 100), "the only holder is the oldest: it waits, then gives up");
    assertEquals(10, next.held());
    next.close();
  }

  @Test
  void aHeapGivesAPointForEvery64Bytes() {
    assertEquals(6_291_456, PointBudget.pointsForHeap(384L << 20), "the launcher's default heap");
    assertEquals(50_000_000L, PointBudget.pointsForHeap(Long.MAX_VALUE), "a JVM without a heap limit");
    assertEquals(PointBudget.pointsForHeap(Runtime.getRuntime().maxMemory()), PointBudget.pointsForThisHeap());
  }

  @Test
  void takesFromSeveralThreadsAddUp() throws Exception {
    PointBudget budget = new PointBudget(1_000_000);
    PointBudget.Lease lease = budget.lease();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        done.add(threads.submit(() -> {
          for (int i = 0; i < 10_000; i++) {
            lease.take(3, 0);
          }
        }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      threads.shutdown();
    }
    assertEquals(120_000, lease.held());
    assertEquals(120_000, budget.taken());
    lease.close();
    assertEquals(0, budget.taken());
  }
}
