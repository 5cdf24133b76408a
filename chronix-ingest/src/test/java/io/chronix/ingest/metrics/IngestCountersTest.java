package io.chronix.ingest.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.pipeline.PointsRejectedException;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngestCountersTest {

  private static PointBatch points(int n) {
    PointBatch batch = new PointBatch();
    for (int i = 0; i < n; i++) {
      batch.accept(SeriesKey.metric("m", Map.of()), i, i);
    }
    return batch;
  }

  @Test
  void storedPointsCountAlsoWhenOthersOfTheBatchAreRefused() throws IOException {
    IngestCounters counters = new IngestCounters();
    counters.counting("influx", batch -> { }).write(points(5));
    BatchWriter refusingTwo = batch -> {
      throw new PointsRejectedException("2 point(s) refused", batch.size() - 2);
    };
    assertThrows(PointsRejectedException.class, () -> counters.counting("influx", refusingTwo).write(points(5)));
    BatchWriter failing = batch -> {
      throw new IOException("log failed");
    };
    assertThrows(IOException.class, () -> counters.counting("influx", failing).write(points(4)));
    assertEquals(Map.of("influx", 8L), counters.snapshot(), "5, then the 3 stored of 5, then none of a failed write");
  }
}
