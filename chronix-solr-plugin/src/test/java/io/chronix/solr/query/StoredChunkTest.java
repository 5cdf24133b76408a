package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.BlockStats;
import io.chronix.core.record.RangeStats;
import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class StoredChunkTest {

  private static final long T0 = 1_700_000_000_000L;

  @Test
  void aRecordDecodedAsItIsReadAnswersAsItsBlobWould() throws Exception {
    Points points = new Points();
    for (int i = 0; i < 2_000; i++) { // four blocks, one point a second
      points.add((T0 + i * 1000L) * 1_000_000L, Math.sin(i / 10.0));
    }
    byte[] blob = ChunkCodec.lossless().encode(points);
    StoredChunk stored = new StoredChunk("r1", 3, 7, blob, T0, T0 + 1_999_000L, null, null);
    TimeRange range = new TimeRange(T0 + 1_500_000L, T0 + 1_800_000L); // inside the last block but one
    SeriesFields series = new SeriesFields();

    StoredChunk decoded = stored.decodedFor(range);

    assertNull(decoded.data(), "the blob is let go");
    Points expected = stored.decode(series, range);
    Points actual = decoded.decode(series, range);
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.timestamp(i), actual.timestamp(i));
      assertEquals(expected.value(i), actual.value(i));
    }
    assertEquals(301, actual.clip(range.fromNanos(), range.toNanosExclusive()).size());
    assertSame(decoded, decoded.withData(null), "nothing to read again");
    assertThrows(IllegalStateException.class, () -> decoded.decode(series, TimeRange.ALL),
        "points of one range do not answer another");
    assertThrows(IllegalStateException.class, () -> decoded.rangeStats(series, range));
  }

  /** A record read with its blob keeps the figures of the blocks a range covers, for the next query. */
  @Test
  void aRangeOverWholeBlocksKeepsTheirFiguresWithTheRecord() {
    Points points = new Points();
    for (int i = 0; i < 2_000; i++) { // four blocks, one point a second
      points.add((T0 + i * 1000L) * 1_000_000L, Math.sin(i / 10.0));
    }
    byte[] blob = ChunkCodec.lossless().encode(points);
    BlockStats[] kept = new BlockStats[1];
    StoredChunk stored = new StoredChunk("r1", 3, 7, blob, T0, T0 + 1_999_000L, null,
        blocks -> kept[0] == null ? kept[0] = new BlockStats(blocks) : kept[0]);
    StoredChunk alone = new StoredChunk("r1", 3, 7, blob, T0, T0 + 1_999_000L, null, null);
    TimeRange range = new TimeRange(T0 + 100_000L, T0 + 1_900_000L); // blocks 1 and 2 whole
    SeriesFields series = new SeriesFields();

    RangeStats first = stored.rangeStats(series, range);
    assertEquals(2, kept[0].known());
    assertEquals(alone.rangeStats(series, range), first);
    assertEquals(first, stored.rangeStats(series, range), "the kept figures answer as the blob did");
  }
}
