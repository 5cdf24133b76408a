package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * The values {@link UnsearchableSeries#everyValue} offers a listing must be exactly those of the
 * series in the set, whatever the order of adds and removes, repeated ones included: a value
 * missing would drop a buffered series from a listing, a value left over only costs a visit.
 */
class FieldValueCountsTest {

  private static final List<String> FIELDS = List.of(RecordFields.NAME, RecordFields.TYPE, "host", "dc", "rack");

  @Test
  void valuesAreThoseOfTheSeriesInTheSet() {
    Random random = new Random(1127);
    List<SeriesKey> keys = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Map<String, String> attributes = new TreeMap<>();
      attributes.put("host", "h" + random.nextInt(12));
      if (random.nextBoolean()) {
        attributes.put("dc", "d" + random.nextInt(3));
      }
      if (random.nextInt(6) == 0) {
        attributes.put("rack", "r" + i);
      }
      keys.add(random.nextInt(5) == 0 ? new SeriesKey("log" + random.nextInt(2), "string", attributes)
          : SeriesKey.metric("m" + random.nextInt(4), attributes));
    }
    UnsearchableSeries series = new UnsearchableSeries();
    Set<SeriesKey> in = new HashSet<>();
    for (int step = 0; step < 3_000; step++) {
      SeriesKey key = keys.get(random.nextInt(keys.size()));
      // adds twice and removes what is not there as the buffers do: every query's visit notes a series again
      if (random.nextInt(5) < 3) {
        series.add(key);
        in.add(key);
      } else {
        series.remove(key);
        in.remove(key);
      }
      for (String field : FIELDS) {
        Set<String> expected = new HashSet<>();
        for (SeriesKey k : in) {
          String value = field.equals(RecordFields.NAME) ? k.name()
              : field.equals(RecordFields.TYPE) ? k.type() : k.attributes().get(field);
          if (value != null) {
            expected.add(value);
          }
        }
        Set<String> offered = new HashSet<>();
        assertTrue(series.everyValue(field, offered::add), "each value once");
        assertEquals(expected, offered, () -> field + " of " + in);
        if (!expected.isEmpty()) {
          String refused = expected.iterator().next();
          assertFalse(series.everyValue(field, value -> !value.equals(refused)), field + " " + refused);
        }
      }
    }
    assertTrue(series.everyValue("nic", value -> false), "a field no series has");
  }

  /**
   * Two threads adding the same series at once (two requests with points of one series, each
   * finding it not yet in the set) count it once: removed once, its values are gone.
   */
  @Test
  void aSeriesAddedByTwoThreadsAtOnceCountsOnce() throws Exception {
    List<SeriesKey> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add(SeriesKey.metric("m" + i % 7, Map.of("host", "h" + i)));
    }
    for (int round = 0; round < 5; round++) {
      UnsearchableSeries series = new UnsearchableSeries();
      CyclicBarrier start = new CyclicBarrier(2);
      Runnable adding = () -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        keys.forEach(series::add);
      };
      Thread other = new Thread(adding);
      other.start();
      adding.run();
      other.join();
      keys.forEach(series::remove);
      for (String field : List.of(RecordFields.NAME, "host")) {
        Set<String> left = new HashSet<>();
        series.everyValue(field, left::add);
        assertEquals(Set.of(), left, field);
      }
    }
  }

  /** The name and the type are the key's own, not an attribute that happens to be called so. */
  @Test
  void nameAndTypeAreTheKeys() {
    UnsearchableSeries series = new UnsearchableSeries();
    series.add(SeriesKey.metric("cpu", Map.of("type", "gauge", "name", "other")));
    Set<String> types = new HashSet<>();
    series.everyValue(RecordFields.TYPE, types::add);
    assertEquals(Set.of("metric"), types);
    Set<String> names = new HashSet<>();
    series.everyValue(RecordFields.NAME, names::add);
    assertEquals(Set.of("cpu"), names);
  }
}
