package io.chronix.ingest.buffer;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.SeriesKey;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The series whose buffers hold points searches may not see yet, or did within the last minute
 * ({@link #follow}), by name and then by the names of their attributes. Snapshots visit these
 * instead of every series ever buffered (milliseconds a query with ten thousand idle series), and
 * a query that names its series only those of that name: with 150,000 buffered series, visiting
 * all of them for every dashboard query took a quarter of the server's CPU in the Gatling load. A
 * listing whose question depends on the names alone asks it once a group ({@link #forEach(String,
 * Predicate, Consumer)}): a fleet's series share a handful of attribute name lists, and a
 * label-name listing walked all 10,000 buffered series of the PromQL benchmark for nothing.
 *
 * <p>A query that demands a value of an attribute ({@code cpu{host="h42"}}) visits only the series
 * of its name with that value: a group keeps an index by the values of each attribute such a query
 * has asked for, made on the first such query and kept while the group has series. Testing each
 * of a name's thousand buffered series instead was a third of a live one-series query.
 *
 * <p>A series is added and removed under its buffer's lock, so the two never race for one key;
 * a name's groups and their indexes change inside that name's {@code compute}, so a group or a
 * name is dropped only when it is empty, an index never misses a series of its group, and the
 * series' values are counted ({@link FieldValueCounts}) exactly once while it is in. Iteration is
 * weakly consistent, as a snapshot taken while points arrive is anyway.
 */
final class UnsearchableSeries {

  private final ConcurrentHashMap<String, Map<AttributeNames, Group>> byName = new ConcurrentHashMap<>();
  private final FieldValueCounts values = new FieldValueCounts();

  /**
   * How long a series stays in after its last point or chunk although searches see all of it. A
   * fleet's series send every ten seconds or so: let go after each chunk's write and taken in again
   * with its next point, each of 180,000 series put new entries into long-lived maps every few
   * minutes, and at a young collection those entries were half of the cards the collector scanned
   * and some 180,000 of the objects it copied (docs/benchmarks.md, "The fleet's young collections:
   * what points at the young objects"). A series in for longer than needed costs a query a visit
   * that finds nothing.
   */
  static final long KEEP_QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

  /**
   * Takes the series in where its buffer has points searches may not see, and lets it go where
   * the buffer has none and has been quiet for {@link #KEEP_QUIET_NANOS}; under the buffer's lock.
   */
  void follow(SeriesKey key, SeriesBuffer buffer, long nowNanos) {
    if (buffer.hasUnsearchable()) {
      add(key);
    } else if (buffer.isIdle(KEEP_QUIET_NANOS, nowNanos)) {
      remove(key);
    }
  }

  void add(SeriesKey key) {
    AttributeNames names = new AttributeNames(key.attributes());
    Map<AttributeNames, Group> groups = byName.get(key.name());
    Group group = groups != null ? groups.get(names) : null;
    if (group != null && group.keys.contains(key)) {
      return;
    }
    byName.compute(key.name(), (name, present) -> {
      Map<AttributeNames, Group> all = present != null ? present : new ConcurrentHashMap<>();
      Group keys = all.computeIfAbsent(names, same -> new Group());
      if (!keys.keys.contains(key)) {
        values.add(key); // before the key is there: a listing may trust the counts
        keys.add(key);
      }
      return all;
    });
  }

  void remove(SeriesKey key) {
    AttributeNames names = new AttributeNames(key.attributes());
    byName.computeIfPresent(key.name(), (name, groups) -> {
      groups.computeIfPresent(names, (same, group) -> {
        if (group.remove(key)) {
          values.remove(key);
        }
        return group.keys.isEmpty() ? null : group;
      });
      return groups.isEmpty() ? null : groups;
    });
  }

  /** Whether no series is in: a name is dropped with its last series. */
  boolean isEmpty() {
    return byName.isEmpty();
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
      Map<AttributeNames, Group> groups = byName.get(name);
      if (groups != null) {
        visit(groups, groupWanted, action);
      }
      return;
    }
    for (Map<AttributeNames, Group> groups : byName.values()) {
      visit(groups, groupWanted, action);
    }
  }

  /**
   * The series of one name whose attribute has the value: only those, from the groups' indexes by
   * that attribute (made here where a group has none yet). Series without the attribute have no
   * value of it and are not visited.
   */
  void forEach(String name, String attribute, String value, Consumer<SeriesKey> action) {
    forEachOf(name, attribute, Set.of(value), key -> true, action);
  }

  /**
   * The series of one name (every name where null) whose field (the name, the type or an
   * attribute) has one of the values, in the groups {@code groupWanted} admits (asked as {@link
   * #forEach(String, Predicate, Consumer)} asks it): by name for names, from the groups' indexes
   * by the attribute for attributes. A series' type is not what its groups are kept by: those are
   * visited whole.
   */
  void forEach(String name, String field, Set<String> values, Predicate<SeriesKey> groupWanted,
      Consumer<SeriesKey> action) {
    if (field.equals(RecordFields.NAME)) {
      for (String value : values) {
        if (name == null || name.equals(value)) {
          forEach(value, groupWanted, action);
        }
      }
    } else if (field.equals(RecordFields.TYPE)) {
      forEach(name, groupWanted, key -> {
        if (values.contains(key.type())) {
          action.accept(key);
        }
      });
    } else if (name != null) {
      forEachOf(name, field, values, groupWanted, action);
    } else {
      for (String each : byName.keySet()) {
        forEachOf(each, field, values, groupWanted, action);
      }
    }
  }

  private void forEachOf(String name, String attribute, Set<String> values, Predicate<SeriesKey> groupWanted,
      Consumer<SeriesKey> action) {
    Map<AttributeNames, Group> groups = byName.get(name);
    if (groups == null) {
      return;
    }
    for (Map.Entry<AttributeNames, Group> entry : groups.entrySet()) {
      Group group = entry.getValue();
      Iterator<SeriesKey> keys = group.keys.iterator();
      if (!keys.hasNext() || !groupWanted.test(keys.next())) {
        continue; // passed over whole, and not indexed for nothing
      }
      ValueIndex index = group.indexes.get(attribute);
      if (index == null) {
        int place = entry.getKey().attributes().indexOf(attribute);
        if (place < 0) {
          continue; // the group's series lack the attribute
        }
        index = indexBy(name, entry.getKey(), group, attribute, place);
        if (index == null) {
          continue; // the group emptied meanwhile
        }
      }
      for (String value : values) {
        index.forEach(value, action);
      }
    }
  }

  /** The group's index by the attribute, made inside the name's compute where it has none yet; null where the group is gone. */
  private ValueIndex indexBy(String name, AttributeNames names, Group group, String attribute, int place) {
    byName.computeIfPresent(name, (same, groups) -> {
      if (groups.get(names) == group && !group.indexes.containsKey(attribute)) {
        group.index(attribute, place);
      }
      return groups;
    });
    return group.indexes.get(attribute);
  }

  private static void visit(Map<AttributeNames, Group> groups, Predicate<SeriesKey> groupWanted,
      Consumer<SeriesKey> action) {
    for (Group group : groups.values()) {
      Iterator<SeriesKey> keys = group.keys.iterator();
      if (keys.hasNext() && groupWanted.test(keys.next())) {
        group.keys.forEach(action);
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

  /**
   * One name's series with one list of attribute names, and their indexes by the values of the
   * attributes queries demanded. Changed only inside the name's {@code compute}; read without a lock.
   */
  private static final class Group {
    private final Set<SeriesKey> keys = ConcurrentHashMap.newKeySet();
    /** By attribute name; replaced whole when one is added, so a reader sees each index complete. */
    private volatile Map<String, ValueIndex> indexes = Map.of();

    void add(SeriesKey key) {
      keys.add(key);
      for (ValueIndex index : indexes.values()) {
        index.add(key);
      }
    }

    boolean remove(SeriesKey key) {
      if (!keys.remove(key)) {
        return false;
      }
      for (ValueIndex index : indexes.values()) {
        index.remove(key);
      }
      return true;
    }

    void index(String attribute, int place) {
      ValueIndex index = new ValueIndex(place, new ConcurrentHashMap<>());
      for (SeriesKey key : keys) {
        index.add(key);
      }
      Map<String, ValueIndex> more = new HashMap<>(indexes);
      more.put(attribute, index);
      indexes = Map.copyOf(more);
    }
  }

  /**
   * A group's series by their value of the attribute at {@code place} among the group's attribute
   * names. A value most often belongs to one series of a group (a host's), which is kept as itself:
   * a set of its own for each would cost a few hundred bytes a series. Changed only by the group's
   * writer (inside the name's {@code compute}); a reader sees a series or a concurrent set.
   */
  private record ValueIndex(int place, ConcurrentHashMap<String, Object> byValue) {
    void add(SeriesKey key) {
      String value = key.attributes().value(place);
      Object present = byValue.get(value);
      if (present == null) {
        byValue.put(value, key);
      } else if (present instanceof SeriesKey one) {
        if (!one.equals(key)) {
          Set<SeriesKey> more = ConcurrentHashMap.newKeySet();
          more.add(one);
          more.add(key);
          byValue.put(value, more);
        }
      } else {
        keys(present).add(key);
      }
    }

    void remove(SeriesKey key) {
      String value = key.attributes().value(place);
      Object present = byValue.get(value);
      if (present instanceof SeriesKey one) {
        if (one.equals(key)) {
          byValue.remove(value);
        }
      } else if (present != null) {
        Set<SeriesKey> keys = keys(present);
        keys.remove(key);
        if (keys.size() == 1) {
          byValue.put(value, keys.iterator().next());
        }
      }
    }

    void forEach(String value, Consumer<SeriesKey> action) {
      Object present = byValue.get(value);
      if (present instanceof SeriesKey one) {
        action.accept(one);
      } else if (present != null) {
        keys(present).forEach(action);
      }
    }

    @SuppressWarnings("unchecked") // a value's entry is a key or a set of them
    private static Set<SeriesKey> keys(Object entry) {
      return (Set<SeriesKey>) entry;
    }
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
