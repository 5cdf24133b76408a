package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.apache.solr.common.SolrException;
import org.junit.jupiter.api.Test;

class CutRecordsTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final TimeRange RANGE = new TimeRange(T0 + 100_000L, T0 + 400_000L);

  /**
   * Records spread over groups, in batches decoded here, handed to the pool (more than may wait at
   * once) or on all cores at the end: every record ends up decoded in its place, as its blob decodes.
   */
  @Test
  void everyRecordIsPlacedDecodedWhereverItsBatchWasDecoded() {
    Random random = new Random(3);
    for (long parallelPoints : new long[] {0, 1_000, Long.MAX_VALUE}) {
      for (int records : new int[] {1, 255, 256, 257, CutRecords.BATCH * (CutRecords.IN_FLIGHT + 3) + 17}) {
        CutRecords cuts = new CutRecords(RANGE, parallelPoints);
        List<List<StoredChunk>> groups = new ArrayList<>();
        for (int g = 0; g < 7; g++) {
          groups.add(new ArrayList<>());
        }
        List<StoredChunk> added = new ArrayList<>();
        for (int r = 0; r < records; r++) {
          List<StoredChunk> group = groups.get(random.nextInt(groups.size()));
          if (random.nextInt(4) == 0) {
            group.add(chunk("whole" + r, 1 + random.nextInt(50))); // an uncut record beside the cut ones
          }
          int seconds = 1 + random.nextInt(500);
          StoredChunk chunk = chunk("r" + r, seconds);
          cuts.add(group, chunk, new SeriesFields(), seconds);
          added.add(chunk);
        }
        cuts.decode();
        int found = 0;
        for (List<StoredChunk> group : groups) {
          for (StoredChunk placed : group) {
            if (placed.id().startsWith("whole")) {
              assertTrue(placed.data() != null, "an uncut record stays as it was");
              continue;
            }
            StoredChunk original = added.get(Integer.parseInt(placed.id().substring(1)));
            assertNull(placed.data(), placed.id() + " decoded, its blob let go");
            assertSamePoints(original.decode(new SeriesFields(), RANGE), placed.decode(new SeriesFields(), RANGE));
            found++;
          }
        }
        assertEquals(records, found, "records placed, parallel points " + parallelPoints);
      }
    }
  }

  /**
   * With the pool's workers all held by other work, the reader decodes every handed-off batch
   * itself: it never waits for a batch no worker has started.
   */
  @Test
  void theReaderDecodesWhatNoWorkerStarted() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch held = new CountDownLatch(ForkJoinPool.getCommonPoolParallelism());
    for (int w = 0; w < ForkJoinPool.getCommonPoolParallelism(); w++) {
      ForkJoinPool.commonPool().execute(() -> {
        held.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    try {
      assertTrue(held.await(10, TimeUnit.SECONDS), "the pool's workers are held");
      List<StoredChunk> group = new ArrayList<>();
      assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
        CutRecords cuts = new CutRecords(RANGE, 0);
        for (int r = 0; r < CutRecords.BATCH * (CutRecords.IN_FLIGHT + 2); r++) {
          cuts.add(group, chunk("r" + r, 300), new SeriesFields(), 300);
        }
        cuts.decode();
      });
      for (StoredChunk placed : group) {
        assertNull(placed.data(), placed.id() + " decoded");
      }
    } finally {
      release.countDown();
    }
  }

  /**
   * An undecodable blob in a handed-off batch is reported in the reading thread, naming record and
   * series: from a later add where a worker has decoded its batch by then, else from the decode at
   * the end.
   */
  @Test
  void anUndecodableBlobNamesItsRecordAndSeries() {
    CutRecords cuts = new CutRecords(RANGE, 0);
    List<StoredChunk> group = new ArrayList<>();
    SeriesFields fields = new SeriesFields();
    fields.add("name", "cpu_load");
    SolrException error = assertThrows(SolrException.class, () -> {
      for (int r = 0; r < CutRecords.BATCH * 3; r++) {
        StoredChunk chunk = r == 300 ? new StoredChunk("broken", 0, 0, new byte[] {9, 9, 9}, T0, T0 + 500_000L, null, null)
            : chunk("r" + r, 100);
        cuts.add(group, chunk, fields, 100);
      }
      cuts.decode();
    });
    assertTrue(error.getMessage().contains("broken") && error.getMessage().contains("cpu_load"), error.getMessage());
  }

  /** A record of one point a second from T0. */
  private static StoredChunk chunk(String id, int seconds) {
    Points points = new Points();
    for (int i = 0; i < seconds; i++) {
      points.add((T0 + i * 1000L) * 1_000_000L, Math.sin(i));
    }
    long last = T0 + (seconds - 1) * 1000L;
    return new StoredChunk(id, 0, 0, ChunkCodec.lossless().encode(points), T0, last, null, null);
  }

  private static void assertSamePoints(Points expected, Points actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.timestamp(i), actual.timestamp(i));
      assertEquals(expected.value(i), actual.value(i));
    }
  }
}
