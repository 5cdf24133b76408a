package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.influx.LineProtocolServlet;
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

  /**
   * Found by a profile of P4's load: 10,000 lines of one field each, 160 bytes a line, reserved
   * as the line-protocol endpoint reserves from the body's length, grew past the kept size, so
   * every request allocated its arrays anew (a fifth of what the load allocated).
   */
  @Test
  void aBatchSizedForTenThousandLinesOfOneFieldIsKept() {
    BatchPool pool = new BatchPool();
    int bodyBytes = 10_000 * 160;
    PointBatch batch = pool.forBody(bodyBytes);
    LineProtocolServlet.reserveFor(batch, bodyBytes);
    pool.give(batch);
    assertSame(batch, pool.forBody(bodyBytes));
  }
}
