package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
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

  /**
   * A name's series with an attribute's value are the ones its groups' indexes give, after every
   * one of 4,000 random adds and removes: indexes made by the first query of an attribute, kept as
   * series come and go, groups emptied and made again, series lacking the attribute.
   */
  @Test
  void seriesOfAnAttributeValueAreThoseTheModelHas() {
    Random random = new Random(11);
    UnsearchableSeries series = new UnsearchableSeries();
    Set<SeriesKey> model = new HashSet<>();
    List<SeriesKey> keys = new ArrayList<>();
    for (String name : List.of("cpu", "mem")) {
      for (int host = 0; host < 12; host++) {
        keys.add(SeriesKey.metric(name, Map.of("host", "h" + host)));
        keys.add(SeriesKey.metric(name, Map.of("host", "h" + host, "dc", "dc" + host % 3)));
        keys.add(SeriesKey.metric(name, Map.of("dc", "dc" + host % 3, "rack", "r" + host)));
      }
    }
    String[][] asks = {{"host", "h3"}, {"host", "h11"}, {"dc", "dc1"}, {"rack", "r5"}, {"host", "nowhere"}};
    for (int op = 0; op < 4_000; op++) {
      addOrRemoveOne(random, keys, series, model);
      String name = random.nextBoolean() ? "cpu" : "mem";
      String[] ask = asks[random.nextInt(asks.length)];
      Set<SeriesKey> expected = new HashSet<>();
      for (SeriesKey in : model) {
        if (in.name().equals(name) && ask[1].equals(in.attributes().get(ask[0]))) {
          expected.add(in);
        }
      }
      List<SeriesKey> visited = new ArrayList<>();
      series.forEach(name, ask[0], ask[1], visited::add);
      assertVisited(expected, visited, "op " + op + ": " + name + " " + ask[0] + "=" + ask[1]);
    }
  }

  /**
   * The series whose field has one of some values, of one name or of all, are those the model has
   * among the groups the question admits, after every one of 4,000 random adds and removes: names
   * by name, types among the admitted groups, attributes from indexes made by the first question
   * that meets a group (none made for a group refused).
   */
  @Test
  void seriesOfAFieldsValuesAreThoseTheModelHas() {
    Random random = new Random(13);
    UnsearchableSeries series = new UnsearchableSeries();
    Set<SeriesKey> model = new HashSet<>();
    List<SeriesKey> keys = new ArrayList<>();
    for (String name : List.of("cpu", "mem", "disk")) {
      for (int host = 0; host < 10; host++) {
        keys.add(SeriesKey.metric(name, Map.of("host", "h" + host)));
        keys.add(SeriesKey.metric(name, Map.of("host", "h" + host, "dc", "dc" + host % 3)));
        keys.add(new SeriesKey(name, "log", Map.of("host", "h" + host)));
      }
    }
    List<String> fields = List.of(RecordFields.NAME, RecordFields.TYPE, "host", "dc", "rack");
    List<String> values = List.of("cpu", "disk", "metric", "log", "h1", "h4", "h9", "dc0", "dc2", "r1", "nowhere");
    for (int op = 0; op < 4_000; op++) {
      addOrRemoveOne(random, keys, series, model);
      String name = random.nextBoolean() ? null : List.of("cpu", "mem", "disk").get(random.nextInt(3));
      String field = fields.get(random.nextInt(fields.size()));
      Set<String> asked = new HashSet<>();
      for (int i = random.nextInt(3); i >= 0; i--) {
        asked.add(values.get(random.nextInt(values.size())));
      }
      // refuses the groups with a data centre
      Predicate<SeriesKey> groupWanted = in -> !in.attributes().containsKey("dc");
      Set<SeriesKey> expected = new HashSet<>();
      for (SeriesKey in : model) {
        String value = RecordFields.valueOf(in, field);
        if ((name == null || in.name().equals(name)) && groupWanted.test(in) && asked.contains(value)) {
          expected.add(in);
        }
      }
      List<SeriesKey> visited = new ArrayList<>();
      series.forEach(name, field, asked, groupWanted, visited::add);
      assertVisited(expected, visited, "op " + op + ": " + name + " " + field + " in " + asked);
    }
  }

  /**
   * Indexes made while another thread adds and removes series of their groups miss none: the series
   * come in 200 groups (attribute name lists), each indexed by the first query that meets it while
   * its series still arrive; when the adding is done, every series with a value is visited and no
   * removed one is.
   */
  @Test
  void indexesMadeWhileSeriesArriveMissNone() throws Exception {
    for (int round = 0; round < 5; round++) {
      UnsearchableSeries series = new UnsearchableSeries();
      int count = 20_000;
      Thread writer = new Thread(() -> {
        for (int i = 0; i < count; i++) {
          series.add(key(i));
          if (i % 7 == 0) {
            series.remove(key(i / 2));
          }
        }
      });
      writer.start();
      while (writer.isAlive()) {
        series.forEach("cpu", "host", "h7", key -> { });
      }
      writer.join();
      for (int host = 0; host < 100; host++) {
        String value = "h" + host;
        Set<SeriesKey> expected = new HashSet<>();
        series.forEach("cpu", key -> {
          if (key.attributes().get("host").equals(value)) {
            expected.add(key);
          }
        });
        Set<SeriesKey> visited = new HashSet<>();
        series.forEach("cpu", "host", value, visited::add);
        Set<SeriesKey> missed = new HashSet<>(expected);
        missed.removeAll(visited);
        Set<SeriesKey> wrong = new HashSet<>(visited);
        wrong.removeAll(expected);
        assertEquals(List.of(Set.of(), Set.of()), List.of(missed, wrong),
            "round " + round + ", " + value + ": the series missed, then those visited wrongly");
        assertTrue(expected.size() > 150, "series with " + value + ": " + expected.size());
      }
    }
  }

  /** Adds a random one of the keys (two times in three) or removes it, from the series and the model alike. */
  private static void addOrRemoveOne(Random random, List<SeriesKey> keys, UnsearchableSeries series,
      Set<SeriesKey> model) {
    SeriesKey key = keys.get(random.nextInt(keys.size()));
    if (random.nextInt(3) == 0) {
      series.remove(key);
      model.remove(key);
    } else {
      series.add(key);
      model.add(key);
    }
  }

  private static void assertVisited(Set<SeriesKey> expected, List<SeriesKey> visited, String what) {
    assertEquals(expected, new HashSet<>(visited), what);
    assertEquals(expected.size(), visited.size(), "each series visited once");
  }

  private static SeriesKey key(int i) {
    return SeriesKey.metric("cpu", Map.of("host", "h" + i % 100, "n", String.valueOf(i), "g" + i % 200, "x"));
  }

  private static Set<SeriesKey> named(UnsearchableSeries series, String name) {
    Set<SeriesKey> keys = new HashSet<>();
    series.forEach(name, keys::add);
    return keys;
  }
}
