package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.core.series.SeriesKey;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PointBatchTest {

  @Test
  void everyTypeSurvivesGrowth() {
    SeriesKey doubles = SeriesKey.metric("d", Map.of());
    SeriesKey longs = new SeriesKey("l", "long", Map.of());
    SeriesKey texts = new SeriesKey("s", "string", Map.of());
    SeriesKey flags = new SeriesKey("b", "boolean", Map.of());
    PointBatch batch = new PointBatch(1);
    for (int i = 0; i < 1000; i++) {
      switch (i % 4) {
        case 0 -> batch.accept(doubles, i, i + 0.5);
        case 1 -> batch.acceptLong(longs, i, Long.MAX_VALUE - i);
        case 2 -> batch.acceptText(texts, i, "s" + i);
        default -> batch.acceptBoolean(flags, i, i % 8 == 3);
      }
    }
    assertEquals(1000, batch.size());
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, batch.timestamp(i));
      switch (i % 4) {
        case 0 -> assertEquals(i + 0.5, batch.value(i));
        case 1 -> assertEquals(Long.MAX_VALUE - i, batch.longValue(i));
        case 2 -> assertEquals("s" + i, batch.text(i));
        default -> assertEquals(i % 8 == 3 ? 1.0 : 0.0, batch.value(i));
      }
    }
  }

  @Test
  void equalKeysShareOneEntryOfTheSeriesTableInOrderOfFirstAppearance() {
    SeriesKey cpu = SeriesKey.metric("cpu", Map.of("host", "a"));
    SeriesKey cpuAgain = SeriesKey.metric("cpu", Map.of("host", "a")); // equal, another instance
    SeriesKey mem = SeriesKey.metric("mem", Map.of("host", "a"));
    PointBatch batch = new PointBatch(1);
    batch.accept(mem, 1, 1);
    batch.accept(cpu, 2, 2);
    batch.accept(mem, 3, 3);
    batch.accept(cpuAgain, 4, 4);
    batch.accept(cpuAgain, 5, 5);
    assertEquals(2, batch.seriesCount());
    assertSame(mem, batch.series(0));
    assertSame(cpu, batch.series(1));
    assertEquals(java.util.List.of(0, 1, 0, 1, 1),
        java.util.stream.IntStream.range(0, batch.size()).map(batch::seriesOf).boxed().toList());
    assertSame(cpu, batch.key(4), "every point of a series answers the table's instance");

    batch.clear();
    batch.accept(cpuAgain, 6, 6);
    assertEquals(1, batch.seriesCount());
    assertSame(cpuAgain, batch.series(0));
    assertEquals(0, batch.seriesOf(0));
  }

  /** Far more series than the table was sized for, points interleaved, equal keys as other instances. */
  @Test
  void manySeriesInterleavedKeepOneEntryEachInOrderOfFirstAppearance() {
    int seriesCount = 40_000;
    PointBatch batch = new PointBatch(8);
    for (int round = 0; round < 3; round++) {
      for (int s = 0; s < seriesCount; s++) {
        // a new instance every round: the table must compare by equality, not identity
        batch.accept(SeriesKey.metric("m" + (s % 7), Map.of("host", "h" + s)), round, s);
      }
    }
    assertEquals(seriesCount, batch.seriesCount());
    for (int s = 0; s < seriesCount; s++) {
      assertEquals(SeriesKey.metric("m" + (s % 7), Map.of("host", "h" + s)), batch.series(s));
    }
    for (int i = 0; i < batch.size(); i++) {
      assertEquals(i % seriesCount, batch.seriesOf(i));
    }
    batch.clear();
    batch.accept(SeriesKey.metric("m1", Map.of("host", "h1")), 1, 1);
    assertEquals(1, batch.seriesCount());
  }

  /** A guess from a large body reserves a bounded amount (a body's bytes are budgeted, not the guess). */
  /** A batch cleared for the next request (the pool) finds nothing of the last one, few series or many. */
  @Test
  void aClearedBatchStartsAfresh() {
    PointBatch batch = new PointBatch(20_000);
    for (int round = 0; round < 3; round++) {
      int seriesCount = round == 2 ? 5_000 : 3; // sparse and dense clearing of the table
      // the second round has the first round's series in reverse: a slot left over would give the old place
      for (int i = 0; i < 2 * seriesCount; i++) {
        batch.accept(SeriesKey.metric("m" + round / 2, Map.of("s", label(round, i % seriesCount, seriesCount))), i, i);
      }
      assertEquals(seriesCount, batch.seriesCount());
      for (int i = 0; i < 2 * seriesCount; i++) {
        assertEquals(i % seriesCount, batch.seriesOf(i));
        assertEquals(label(round, i % seriesCount, seriesCount), batch.key(i).attributes().get("s"));
        assertEquals("m" + round / 2, batch.key(i).name());
      }
      batch.clear();
      assertEquals(0, batch.size());
      assertEquals(0, batch.seriesCount());
    }
  }

  private static String label(int round, int series, int seriesCount) {
    return Integer.toString(round == 1 ? seriesCount - 1 - series : series);
  }

  @Test
  void aReservationIsBounded() {
    PointBatch batch = new PointBatch(8);
    batch.reserve(Integer.MAX_VALUE); // unbounded, this would ask for arrays of two billion entries
    SeriesKey cpu = SeriesKey.metric("cpu", Map.of("host", "a"));
    for (int i = 0; i < 100; i++) {
      batch.accept(cpu, i, i);
    }
    assertEquals(100, batch.size());
    assertEquals(1, batch.seriesCount());
  }
}
