package io.chronix.ingest.lifecycle;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.pipeline.PointsRejectedException;
import java.io.IOException;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Refuses points older than their series' retention at ingestion, so that nothing is stored only
 * to be deleted at the next check: the other points of the batch are written, and the request is
 * answered 400 naming how many were refused, the first of them and the rule.
 */
public final class RetentionFilter implements BatchWriter {

  private final BatchWriter next;
  private final RetentionRules rules;
  private final LongSupplier clockMillis;

  public RetentionFilter(BatchWriter next, RetentionRules rules, LongSupplier clockMillis) {
    this.next = next;
    this.rules = rules;
    this.clockMillis = clockMillis;
  }

  /** The writer with the filter in front, or the writer itself when every series is kept forever. */
  public static BatchWriter around(BatchWriter next, RetentionRules rules, LongSupplier clockMillis) {
    return rules.keepsEverything() ? next : new RetentionFilter(next, rules, clockMillis);
  }

  @Override
  public void write(PointBatch batch) throws IOException {
    long now = clockMillis.getAsLong();
    PointBatch kept = null;
    int refused = 0;
    String first = null;
    SeriesKey key = null;
    long horizonNanos = Long.MIN_VALUE;
    RetentionRules.Rule rule = null;
    for (int i = 0; i < batch.size(); i++) {
      if (batch.key(i) != key) { // batches come in runs of one series
        key = batch.key(i);
        rule = rules.ruleFor(key.name());
        horizonNanos = rule.period() == null ? Long.MIN_VALUE
            : Math.multiplyExact(now - rule.period().toMillis(), 1_000_000L);
      }
      if (batch.timestamp(i) < horizonNanos) {
        if (kept == null) {
          kept = new PointBatch(batch.size());
          for (int j = 0; j < i; j++) {
            batch.copyTo(j, kept);
          }
        }
        if (refused++ == 0) {
          first = key.name() + " at " + Instant.ofEpochSecond(0, batch.timestamp(i)) + ", older than "
              + rule.describe() + " allows (kept from " + Instant.ofEpochMilli(now - rule.period().toMillis()) + ")";
        }
      } else if (kept != null) {
        batch.copyTo(i, kept);
      }
    }
    if (refused == 0) {
      next.write(batch);
      return;
    }
    if (!kept.isEmpty()) {
      next.write(kept);
    }
    throw new PointsRejectedException(refused + " point(s) refused as older than their retention, "
        + kept.size() + " stored; first: " + first, kept.size());
  }
}
