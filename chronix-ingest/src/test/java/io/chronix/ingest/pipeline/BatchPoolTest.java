package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.core.series.SeriesKey;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchPoolTest {

  private static final SeriesKey CPU = SeriesKey.metric("cpu", Map.of("host", "a"));

  @Test
  void aBatchGivenBackComesBackEmpty() {
    BatchPool pool = new BatchPool();
    PointBatch batch = pool.take(100);
    batch.accept(CPU, 1, 1);
    pool.give(batch);
    PointBatch again = pool.take(100);
    assertSame(batch, again, "reused");
    assertEquals(0, again.size());
    assertEquals(0, again.seriesCount());
  }

  @Test
  void largeBatchesAreLeftToTheCollector() {
    BatchPool pool = new BatchPool();
    PointBatch large = pool.take(BatchPool.KEPT_POINTS + 1);
    pool.give(large);
    assertNotSame(large, pool.take(100), "a batch this large holds megabytes: not kept");
  }
}
