package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.SeriesKey;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UnsearchableSeriesTest {

  private static final SeriesKey CPU_A = SeriesKey.metric("cpu", Map.of("host", "a"));
  private static final SeriesKey CPU_B = SeriesKey.metric("cpu", Map.of("host", "b"));
  private static final SeriesKey MEM_A = SeriesKey.metric("mem", Map.of("host", "a"));

  @Test
  void seriesAreFoundByTheirNameAndLeaveWhenRemoved() {
    UnsearchableSeries series = new UnsearchableSeries();
    series.add(CPU_A);
    series.add(CPU_B);
    series.add(MEM_A);
    series.add(CPU_A); // twice: still one entry
    assertEquals(Set.of(CPU_A, CPU_B), Set.copyOf(series.named("cpu")));
    assertEquals(Set.of(MEM_A), Set.copyOf(series.named("mem")));
    assertEquals(Set.of(), series.named("disk"));

    series.remove(CPU_A);
    assertEquals(Set.of(CPU_B), Set.copyOf(series.named("cpu")));
    series.remove(CPU_B);
    assertEquals(Set.of(), series.named("cpu"));
    series.add(CPU_B); // a name whose set was dropped comes back
    assertEquals(Set.of(CPU_B), Set.copyOf(series.named("cpu")));

    Set<SeriesKey> all = new HashSet<>();
    series.forEach(all::add);
    assertEquals(Set.of(CPU_B, MEM_A), all);
  }
}
