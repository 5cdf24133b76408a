package io.chronix.solr.query;

import java.util.Comparator;
import java.util.List;

/**
 * The order in which a join group's records are merged, the later winning a timestamp they
 * share: by series id, then by write order. Of one series the later write wins (a re-sent point
 * replaces the earlier one); of different series the one with the greater series id, the same
 * on one core, across shards and whichever ingest node wrote when. Ordering by write order alone
 * made such a join's answer depend on which node flushed first.
 */
public final class JoinOrder {

  /** One record (or buffered run) of a group, with what orders it. */
  public record Part<T>(String seriesId, long writeOrder, T item) {}

  private static final Comparator<Part<?>> ORDER = Comparator.<Part<?>, String>comparing(Part::seriesId)
      .thenComparingLong(Part::writeOrder);

  private JoinOrder() {}

  /** Sorts stably: parts equal in both keep their order. */
  public static <T> void sort(List<Part<T>> parts) {
    parts.sort(ORDER);
  }
}
