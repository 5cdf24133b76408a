package io.chronix.core.live;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Where a query finds the {@link LiveSeries} of its collection. A process-wide registry works
 * because the server's embedded Solr node runs in the server's JVM and loads the query plugin
 * from the same class path; a Solr in another process cannot see the server's buffers and finds
 * nothing here, so its answers stay what is stored.
 *
 * <p>Two sources registered under one collection (two embedded servers in one JVM, as tests may
 * start) make the collection ambiguous: nobody finds either rather than one server showing the
 * other's points.
 */
public final class LiveSeriesRegistry {

  private static final Map<String, List<LiveSeries>> SOURCES = new ConcurrentHashMap<>();

  private LiveSeriesRegistry() {}

  public static void register(String collection, LiveSeries source) {
    SOURCES.merge(collection, List.of(source),
        (present, added) -> present.contains(source) ? present : Stream.concat(present.stream(), added.stream()).toList());
  }

  /** Removes the source if it is the one registered; another's registration stays. */
  public static void unregister(String collection, LiveSeries source) {
    SOURCES.computeIfPresent(collection, (name, present) -> {
      List<LiveSeries> rest = present.stream().filter(s -> s != source).toList();
      return rest.isEmpty() ? null : rest;
    });
  }

  /** The source of the collection, when exactly one is registered. */
  public static Optional<LiveSeries> find(String collection) {
    List<LiveSeries> sources = SOURCES.get(collection);
    return sources != null && sources.size() == 1 ? Optional.of(sources.get(0)) : Optional.empty();
  }
}
