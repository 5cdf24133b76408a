package io.chronix.ingest.buffer;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.SeriesKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * How many series of a set have each value of each series field (the name, the type, each
 * attribute), so that a listing of a field's values can tell that the set adds none to those it
 * knows without visiting the series. With 10,000 series buffered, visiting them was half of
 * listing a label's values, although a steady load's buffered series are those its records list.
 * Memory is one entry per distinct value, not per series.
 *
 * <p>The caller serializes {@link #add} and {@link #remove} of one key. Counts only grow before a
 * key joins the set and shrink after it left, so {@link #every} never misses the value of a
 * series in the set.
 */
final class FieldValueCounts {

  private final ConcurrentHashMap<String, Integer> names = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Integer> types = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Integer>> attributes = new ConcurrentHashMap<>();

  void add(SeriesKey key) {
    count(names, key.name(), 1);
    count(types, key.type(), 1);
    AttributeMap map = key.attributes();
    for (int i = 0; i < map.size(); i++) {
      String value = map.value(i);
      attributes.compute(map.name(i), (name, values) -> {
        ConcurrentHashMap<String, Integer> counted = values != null ? values : new ConcurrentHashMap<>();
        count(counted, value, 1);
        return counted;
      });
    }
  }

  void remove(SeriesKey key) {
    count(names, key.name(), -1);
    count(types, key.type(), -1);
    AttributeMap map = key.attributes();
    for (int i = 0; i < map.size(); i++) {
      String value = map.value(i);
      attributes.computeIfPresent(map.name(i), (name, values) -> {
        count(values, value, -1);
        return values.isEmpty() ? null : values; // names a client invented do not pile up
      });
    }
  }

  /**
   * Whether every value the field ({@link RecordFields#NAME}, {@link RecordFields#TYPE} or an
   * attribute's name) has among the series passes the test; true where none has the field.
   */
  boolean every(String field, Predicate<String> test) {
    ConcurrentHashMap<String, Integer> values = field.equals(RecordFields.NAME) ? names
        : field.equals(RecordFields.TYPE) ? types : attributes.get(field);
    if (values == null) {
      return true;
    }
    for (String value : values.keySet()) {
      if (!test.test(value)) {
        return false;
      }
    }
    return true;
  }

  private static void count(ConcurrentHashMap<String, Integer> values, String value, int delta) {
    values.compute(value, (same, n) -> {
      int now = (n == null ? 0 : n) + delta;
      return now > 0 ? now : null;
    });
  }
}
