package io.chronix.core.live;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Points a process has accepted but not yet made searchable as records, offered to a query that
 * runs in the same process so that it can answer with the last seconds instead of the last flush.
 *
 * <p>The server hands its buffers to its embedded Solr node: the node keeps them in its core
 * container under {@link #containerKey} of the collection, where the query plugin finds them. A
 * Solr in another process has no such entry, so its answers stay what is stored.
 */
public interface LiveSeries {

  /** The key under which a core container holds the live series of a collection. */
  static String containerKey(String collection) {
    return LiveSeries.class.getName() + "/" + collection;
  }

  /**
   * Copies of the not yet searchable points, at most one entry per series. The points of an
   * entry are in no particular order and may repeat a timestamp: where they do, the one later in
   * the sequence was written later and wins. Callers may change the copies.
   */
  default List<Buffered> snapshot() {
    return snapshot(key -> true);
  }

  /** As {@link #snapshot()}, for the series the filter wants: the others cost no copy. */
  List<Buffered> snapshot(Predicate<SeriesKey> wanted);

  /**
   * As {@link #snapshot(Predicate)}, for series of the given name only: a query that names its
   * series need not have every buffered series tested. Sources that keep no index by name filter.
   */
  default List<Buffered> snapshot(String name, Predicate<SeriesKey> wanted) {
    return snapshot(key -> key.name().equals(name) && wanted.test(key));
  }

  /**
   * As {@link #snapshot(String, Predicate)}, where every wanted series has {@code value} for the
   * attribute {@code attribute}: a source may visit only those (a query for one host of a thousand
   * need not test the other 999). {@code wanted} still decides each series visited. Sources that
   * keep no index by value filter.
   */
  default List<Buffered> snapshot(String name, String attribute, String value, Predicate<SeriesKey> wanted) {
    return snapshot(name, key -> value.equals(key.attributes().get(attribute)) && wanted.test(key));
  }

  /**
   * Where each wanted series' not yet searchable points begin and end, without copying them: what
   * a listing of series needs, which reads no points (10,000 buffered series cost a copy, sort and
   * record each before). {@code name} null for every name. Each span goes to {@code each} before
   * the next series is asked whether it is {@code wanted}, so a listing can stop wanting series
   * whose fields it has. The default derives the spans from a snapshot.
   */
  default void spans(String name, Predicate<SeriesKey> wanted, Consumer<Span> each) {
    for (Buffered series : name == null ? snapshot(wanted) : snapshot(name, wanted)) {
      Points points = series.points();
      if (!points.isEmpty()) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < points.size(); i++) {
          first = Math.min(first, points.timestamp(i));
          last = Math.max(last, points.timestamp(i));
        }
        each.accept(new Span(series.key(), first, last));
      }
    }
  }

  /**
   * As {@link #spans(String, Predicate, Consumer)}, where {@code namesWanted} tells from one series
   * whether any series with its name and attribute names may be wanted; its answer must depend on
   * those alone. A source that keeps its series grouped by their names asks it once a group and
   * passes over the groups it refuses: a listing of label names asked every one of 10,000 buffered
   * series whose names the records had listed already. It may be asked again as spans are handed
   * on; {@code wanted} still decides each series of a group it admits.
   */
  default void spans(String name, Predicate<SeriesKey> namesWanted, Predicate<SeriesKey> wanted,
      Consumer<Span> each) {
    spans(name, key -> namesWanted.test(key) && wanted.test(key), each);
  }

  /**
   * As {@link #spans(String, Predicate, Predicate, Consumer)}, for the series whose {@code field}
   * (the name, the type or an attribute) has one of {@code values}: a source that keeps its series
   * by their values visits those alone. A listing of a field's values that the records give all
   * but a few of visits the series with those few ({@link #everyValue} tells which they are).
   * Sources that keep no index by values filter.
   */
  default void spans(String name, String field, Set<String> values, Predicate<SeriesKey> namesWanted,
      Predicate<SeriesKey> wanted, Consumer<Span> each) {
    spans(name, namesWanted, key -> {
      String value = RecordFields.valueOf(key, field);
      return value != null && values.contains(value) && wanted.test(key);
    }, each);
  }

  /**
   * Whether every value that a series field ({@link io.chronix.core.record.RecordFields#NAME},
   * {@link io.chronix.core.record.RecordFields#TYPE} or an attribute's name) has among the series
   * with not yet searchable points passes {@code test}; true where none has the field. A listing
   * of the field's values that knows each of them from the records then visits no series: under a
   * steady load its buffered series are those its records list, and visiting 10,000 of them was
   * half of listing a label's values. The test is asked each value once, until one fails; a test
   * that passes them all sees every value. Sources that count no values answer false without
   * asking it: visit them.
   */
  default boolean everyValue(String field, Predicate<String> test) {
    return false;
  }

  /**
   * Whether any series may have not yet searchable points; false only where none has, including
   * points written before the question was asked. A listing asked over a store nothing is being
   * written to then skips preparing its match of buffered series (a tenth of listing label names).
   * Sources that cannot tell answer true.
   */
  default boolean hasUnsearchable() {
    return true;
  }

  /** The not yet searchable points of one series. */
  record Buffered(SeriesKey key, Points points) {}

  /** The first and last timestamp (nanoseconds) of one series' not yet searchable points. */
  record Span(SeriesKey key, long firstNanos, long lastNanos) {}
}
