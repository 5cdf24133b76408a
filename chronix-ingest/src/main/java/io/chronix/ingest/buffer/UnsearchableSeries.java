package io.chronix.ingest.buffer;

import io.chronix.core.series.SeriesKey;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The series whose buffers hold points searches may not see yet, by name. Snapshots visit these
 * instead of every series ever buffered (milliseconds a query with ten thousand idle series), and
 * a query that names its series only those of that name: with 150,000 buffered series, visiting
 * all of them for every dashboard query took a quarter of the server's CPU in the Gatling load.
 *
 * <p>A series is added and removed under its buffer's lock, so the two never race for one key;
 * the per-name sets change atomically ({@code compute}), so a name's set is dropped only when it
 * is empty. Iteration is weakly consistent, as a snapshot taken while points arrive is anyway.
 */
final class UnsearchableSeries {

  private final ConcurrentHashMap<String, Set<SeriesKey>> byName = new ConcurrentHashMap<>();

  void add(SeriesKey key) {
    Set<SeriesKey> named = byName.get(key.name());
    if (named != null && named.contains(key)) {
      return;
    }
    byName.compute(key.name(), (name, keys) -> {
      Set<SeriesKey> set = keys != null ? keys : ConcurrentHashMap.newKeySet();
      set.add(key);
      return set;
    });
  }

  void remove(SeriesKey key) {
    byName.computeIfPresent(key.name(), (name, keys) -> {
      keys.remove(key);
      return keys.isEmpty() ? null : keys;
    });
  }

  void forEach(Consumer<SeriesKey> action) {
    for (Set<SeriesKey> keys : byName.values()) {
      keys.forEach(action);
    }
  }

  /** The series of one name; a view that may change while it is read. */
  Set<SeriesKey> named(String name) {
    Set<SeriesKey> keys = byName.get(name);
    return keys != null ? keys : Set.of();
  }
}
