package io.chronix.core.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.Record;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChunkerTest {

  private static Points points(int count) {
    Points points = new Points(count);
    for (int i = 0; i < count; i++) {
      points.add(1_000L * i, i * 0.5);
    }
    return points;
  }

  @Test
  void pointsThatFitOneRecordAreTheirOwnSlice() {
    Points points = points(4);
    List<Points> slices = Chunker.slices(points, 4);
    assertEquals(1, slices.size());
    assertSame(points, slices.get(0));
  }

  @Test
  void morePointsAreCutIntoCopiesOfAtMostTheChunkSize() {
    Points points = points(10);
    List<Points> slices = Chunker.slices(points, 4);
    assertEquals(List.of(4, 4, 2), slices.stream().map(Points::size).toList());
    int at = 0;
    for (Points slice : slices) {
      for (int i = 0; i < slice.size(); i++, at++) {
        assertEquals(points.timestamp(at), slice.timestamp(i));
        assertEquals(points.value(at), slice.value(i));
      }
    }
    slices.get(0).add(99_000L, 1.0); // a copy: the input stays as it was
    assertEquals(10, points.size());
  }

  @Test
  void aCutHoldsTheRecordsOfTheWholePointsAndTheirSlices() throws Exception {
    Chunker chunker = new Chunker(4, ChunkCodec.lossless());
    SeriesKey key = SeriesKey.metric("cpu", Map.of("host", "a"));
    Points points = points(10);
    List<Record> whole = chunker.chunk(key, points);
    Chunker.Cut cut = chunker.cut(key, points);
    assertEquals(whole.stream().map(Record::id).toList(), cut.records().stream().map(Record::id).toList());
    assertEquals(3, whole.size());
    assertEquals(List.of(4, 4, 2), cut.slices().stream().map(Points::size).toList());
    for (int i = 0; i < 3; i++) {
      assertEquals(cut.slices().get(i).size(), cut.records().get(i).decode().size(), "record " + i);
    }
  }
}
