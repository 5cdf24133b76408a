package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UnsearchableSeriesTest {

  private static final SeriesKey CPU_A = SeriesKey.metric("cpu", Map.of("host", "a"));
  private static final SeriesKey CPU_B = SeriesKey.metric("cpu", Map.of("host", "b"));
  private static final SeriesKey CPU_A_EU = SeriesKey.metric("cpu", Map.of("host", "a", "dc", "eu"));
  private static final SeriesKey MEM_A = SeriesKey.metric("mem", Map.of("host", "a"));

  @Test
  void seriesAreFoundByTheirNameAndLeaveWhenRemoved() {
    UnsearchableSeries series = new UnsearchableSeries();
    series.add(CPU_A);
    series.add(CPU_B);
    series.add(CPU_A_EU);
    series.add(MEM_A);
    series.add(CPU_A); // twice: still one entry
    assertEquals(Set.of(CPU_A, CPU_B, CPU_A_EU), named(series, "cpu"));
    assertEquals(Set.of(MEM_A), named(series, "mem"));
    assertEquals(Set.of(), named(series, "disk"));

    series.remove(CPU_A);
    assertEquals(Set.of(CPU_B, CPU_A_EU), named(series, "cpu"));
    series.remove(CPU_B);
    series.remove(CPU_A_EU);
    assertEquals(Set.of(), named(series, "cpu"));
    series.add(CPU_B); // a name whose groups were dropped comes back
    assertEquals(Set.of(CPU_B), named(series, "cpu"));

    Set<SeriesKey> all = new HashSet<>();
    series.forEach(all::add);
    assertEquals(Set.of(CPU_B, MEM_A), all);
  }

  /** A group refused is passed over whole; the question is asked once a group, of one of its series. */
  @Test
  void groupsOfTheSameAttributeNamesAreAskedOnce() {
    UnsearchableSeries series = new UnsearchableSeries();
    List<SeriesKey> hosts = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      SeriesKey key = SeriesKey.metric("cpu", Map.of("host", "h" + i));
      hosts.add(key);
      series.add(key);
    }
    series.add(CPU_A_EU);
    series.add(MEM_A);
    List<SeriesKey> asked = new ArrayList<>();
    Set<SeriesKey> visited = new HashSet<>();
    // only the name lists with a data centre are wanted
    series.forEach(null, key -> {
      asked.add(key);
      return key.attributes().containsKey("dc");
    }, visited::add);
    assertEquals(3, asked.size(), () -> "asked " + asked);
    assertEquals(Set.of(CPU_A_EU), visited);

    visited.clear();
    series.forEach("cpu", key -> true, visited::add);
    Set<SeriesKey> cpu = new HashSet<>(hosts);
    cpu.add(CPU_A_EU);
    assertEquals(cpu, visited);
    for (SeriesKey key : hosts) {
      series.remove(key);
    }
    asked.clear();
    series.forEach("cpu", key -> asked.add(key), key -> { });
    assertEquals(List.of(CPU_A_EU), asked, "an emptied group is gone");
  }

  private static Set<SeriesKey> named(UnsearchableSeries series, String name) {
    Set<SeriesKey> keys = new HashSet<>();
    series.forEach(name, keys::add);
    return keys;
  }
}
