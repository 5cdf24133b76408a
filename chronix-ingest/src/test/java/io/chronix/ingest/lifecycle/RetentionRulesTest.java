package io.chronix.ingest.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.pipeline.PointsRejectedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetentionRulesTest {

  private static final long DAY = 86_400_000L;

  @Test
  void theFirstMatchingRuleWinsAndTheDefaultTakesTheRest() {
    RetentionRules rules = RetentionRules.parse("1y", "jvm_gc_*=2d, jvm_*=30d,disk.?=1w");
    assertEquals(Duration.ofDays(2), rules.ruleFor("jvm_gc_count").period());
    assertEquals(Duration.ofDays(30), rules.ruleFor("jvm_heap").period());
    assertEquals(Duration.ofDays(7), rules.ruleFor("disk.a").period());
    assertEquals(Duration.ofDays(365), rules.ruleFor("disk.ab").period(), "? is one character");
    assertEquals("*", rules.ruleFor("cpu").pattern());
    assertFalse(rules.keepsEverything());
    RetentionRules forever = RetentionRules.parse("forever", "");
    assertNull(forever.ruleFor("cpu").period());
    assertTrue(forever.keepsEverything());
  }

  @Test
  void badRulesAreRefusedWithTheSetting() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionRules.parse("1y", "jvm_*"))
        .getMessage().contains("retention.rules: 'jvm_*' is not pattern=period"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionRules.parse("soon", ""))
        .getMessage().contains("retention.default"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionRules.parse("1y", "a=0s"))
        .getMessage().contains("must be positive"));
  }

  @Test
  void pointsOlderThanTheirRetentionAreRefusedTheOthersStored() throws Exception {
    long now = 1_700_000_000_000L;
    List<PointBatch> written = new ArrayList<>();
    RetentionFilter filter = new RetentionFilter(written::add, RetentionRules.parse("forever", "tmp_*=1d"), () -> now);
    SeriesKey tmp = SeriesKey.metric("tmp_x", Map.of());
    SeriesKey kept = SeriesKey.metric("cpu", Map.of());
    PointBatch batch = new PointBatch();
    batch.accept(tmp, (now - 2 * DAY) * 1_000_000L, 1);
    batch.accept(tmp, (now - DAY / 2) * 1_000_000L, 2);
    batch.accept(kept, (now - 900 * DAY) * 1_000_000L, 3);
    PointsRejectedException refused = assertThrows(PointsRejectedException.class, () -> filter.write(batch));
    assertTrue(refused.getMessage().startsWith("1 point(s) refused as older than their retention, 2 stored; "
        + "first: tmp_x at 2023-11-12T22:13:20Z, older than retention rule tmp_* (PT24H)"), refused.getMessage());
    assertEquals(1, written.size());
    assertEquals(2, written.get(0).size());
    assertEquals(2.0, written.get(0).value(0));
    assertEquals(3.0, written.get(0).value(1));

    PointBatch young = new PointBatch();
    young.accept(tmp, now * 1_000_000L, 4);
    filter.write(young);
    assertEquals(2, written.size());
    assertTrue(written.get(1) == young, "a batch without old points passes as it is");
  }
}
