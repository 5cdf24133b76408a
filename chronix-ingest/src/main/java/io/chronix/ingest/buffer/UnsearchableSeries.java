package io.chronix.ingest.buffer;

import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.SeriesKey;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The series whose buffers hold points searches may not see yet, by name and then by the names of
 * their attributes. Snapshots visit these instead of every series ever buffered (milliseconds a
 * query with ten thousand idle series), and a query that names its series only those of that
 * name: with 150,000 buffered series, visiting all of them for every dashboard query took a
 * quarter of the server's CPU in the Gatling load. A listing whose question depends on the names
 * alone asks it once a group ({@link #forEach(String, Predicate, Consumer)}): a fleet's series share
 * a handful of attribute name lists, and a label-name listing walked all 10,000 buffered series of
 * the PromQL benchmark for nothing.
 *
 * <p>A series is added and removed under its buffer's lock, so the two never race for one key;
 * a name's groups change inside that name's {@code compute}, so a group or a name is dropped only
 * when it is empty, and the series' values are counted ({@link FieldValueCounts}) exactly once
 * while it is in. Iteration is weakly consistent, as a snapshot taken while points arrive is anyway.
 */
final class UnsearchableSeries {

  private final ConcurrentHashMap<String, Map<AttributeNames, Set<SeriesKey>>> byName = new ConcurrentHashMap<>();
  private final FieldValueCounts values = new FieldValueCounts();

  void add(SeriesKey key) {
    AttributeNames names = new AttributeNames(key.attributes());
    Map<AttributeNames, Set<SeriesKey>> groups = byName.get(key.name());
    Set<SeriesKey> group = groups != null ? groups.get(names) : null;
    if (group != null && group.contains(key)) {
      return;
    }
    byName.compute(key.name(), (name, present) -> {
      Map<AttributeNames, Set<SeriesKey>> all = present != null ? present : new ConcurrentHashMap<>();
      Set<SeriesKey> keys = all.computeIfAbsent(names, same -> ConcurrentHashMap.newKeySet());
      if (!keys.contains(key)) {
        values.add(key); // before the key is there: a listing may trust the counts
        keys.add(key);
      }
      return all;
    });
  }

  void remove(SeriesKey key) {
    AttributeNames names = new AttributeNames(key.attributes());
    byName.computeIfPresent(key.name(), (name, groups) -> {
      groups.computeIfPresent(names, (same, keys) -> {
        if (keys.remove(key)) {
          values.remove(key);
        }
        return keys.isEmpty() ? null : keys;
      });
      return groups.isEmpty() ? null : groups;
    });
  }

  void forEach(Consumer<SeriesKey> action) {
    forEach(null, key -> true, action);
  }

  /** The series of one name (every name where null). */
  void forEach(String name, Consumer<SeriesKey> action) {
    forEach(name, key -> true, action);
  }

  /**
   * The series of one name (every name where null) in the groups that {@code groupWanted} admits:
   * it is asked about one series of each group, and its answer must depend on that series' name
   * and attribute names alone.
   */
  void forEach(String name, Predicate<SeriesKey> groupWanted, Consumer<SeriesKey> action) {
    if (name != null) {
      Map<AttributeNames, Set<SeriesKey>> groups = byName.get(name);
      if (groups != null) {
        visit(groups, groupWanted, action);
      }
      return;
    }
    for (Map<AttributeNames, Set<SeriesKey>> groups : byName.values()) {
      visit(groups, groupWanted, action);
    }
  }

  private static void visit(Map<AttributeNames, Set<SeriesKey>> groups, Predicate<SeriesKey> groupWanted,
      Consumer<SeriesKey> action) {
    for (Set<SeriesKey> group : groups.values()) {
      Iterator<SeriesKey> keys = group.iterator();
      if (keys.hasNext() && groupWanted.test(keys.next())) {
        group.forEach(action);
      }
    }
  }

  /**
   * Whether every value the series field ({@link io.chronix.core.record.RecordFields#NAME}, the
   * type or an attribute) has among these series passes the test: a listing of the field's values
   * asks it once instead of visiting every series.
   */
  boolean everyValue(String field, Predicate<String> test) {
    return values.every(field, test);
  }

  /** A key's attribute names as a map key: equal for keys with {@link io.chronix.core.series.SortedArrayMap#sameNames}. */
  private record AttributeNames(AttributeMap attributes) {
    @Override
    public boolean equals(Object other) {
      return other instanceof AttributeNames that && attributes.sameNames(that.attributes);
    }

    @Override
    public int hashCode() {
      return attributes.namesHashCode();
    }
  }
}
