package io.chronix.ingest.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The next page is read beside the caller, handed over once, its failure as it failed, and never interrupted. */
class PageAheadTest {

  @Test
  void aPageIsReadOnAnotherThreadAndTakenOnce() throws Exception {
    try (PageAhead<String> ahead = new PageAhead<>()) {
      AtomicReference<Thread> reader = new AtomicReference<>();
      ahead.ask(() -> {
        reader.set(Thread.currentThread());
        return "page 2";
      });
      assertThrows(IllegalStateException.class, () -> ahead.ask(() -> "page 3"), "one page ahead at a time");
      assertEquals("page 2", ahead.take());
      assertNotEquals(Thread.currentThread(), reader.get());
      assertThrows(IllegalStateException.class, ahead::take, "taken already");
      ahead.ask(() -> "page 3");
      assertEquals("page 3", ahead.take());
    }
  }

  @Test
  void aFailureComesAsItFailed() throws Exception {
    try (PageAhead<String> ahead = new PageAhead<>()) {
      IOException refused = new SeriesSlices.Refused("more than 100 points");
      ahead.ask(() -> {
        throw refused;
      });
      assertSame(refused, assertThrows(IOException.class, ahead::take));
      IllegalArgumentException bad = new IllegalArgumentException("bad");
      ahead.ask(() -> {
        throw bad;
      });
      assertSame(bad, assertThrows(IllegalArgumentException.class, ahead::take));
    }
  }

  @Test
  void aPageNotTakenFinishesUninterrupted() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    PageAhead<String> ahead = new PageAhead<>();
    ahead.ask(() -> {
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      interrupted.compareAndSet(false, Thread.currentThread().isInterrupted());
      finished.countDown();
      return "dropped";
    });
    assertTrue(started.await(5, TimeUnit.SECONDS));
    ahead.close(); // the writing failed: the page is not wanted any more
    release.countDown();
    assertTrue(finished.await(5, TimeUnit.SECONDS));
    assertFalse(interrupted.get(), "the store's reading is never interrupted");
  }
}
