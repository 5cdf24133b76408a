package io.chronix.ingest.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the status page lists: our warnings and everybody's errors, newest first, a bounded number. */
class RecentErrorsTest {

  private static final Logger OURS = LoggerFactory.getLogger("io.chronix.ingest.SomeComponent");
  private static final Logger THEIRS = LoggerFactory.getLogger("org.apache.solr.SomeComponent");

  @Test
  void keepsOurWarningsAndAllErrorsNewestFirst() {
    RecentErrors errors = new RecentErrors().install();
    try {
      OURS.info("routine");
      THEIRS.warn("their warning");
      OURS.warn("disk almost full: {} bytes left", 42);
      THEIRS.error("their error", new IllegalStateException("boom"));
      List<RecentErrors.Entry> entries = errors.entries();
      assertEquals(2, entries.size(), entries.toString());
      assertEquals("ERROR", entries.get(0).level());
      assertTrue(entries.get(0).message().contains("their error (java.lang.IllegalStateException: boom)"),
          entries.get(0).message());
      assertEquals("WARN", entries.get(1).level());
      assertEquals("disk almost full: 42 bytes left", entries.get(1).message());
      assertEquals("io.chronix.ingest.SomeComponent", entries.get(1).logger());
      for (int i = 0; i < 60; i++) {
        OURS.warn("flood {}", i);
      }
      assertEquals(50, errors.entries().size(), "bounded");
      assertEquals("flood 59", errors.entries().get(0).message());
      assertEquals(62, errors.total(), "the count goes on past what is kept");
    } finally {
      errors.uninstall();
    }
    OURS.warn("after uninstall");
    assertEquals("flood 59", errors.entries().get(0).message(), "nothing kept after uninstall");
  }
}
