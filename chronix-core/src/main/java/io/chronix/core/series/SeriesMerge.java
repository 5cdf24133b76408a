package io.chronix.core.series;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Joins the decoded chunks of one series into one time-ordered, duplicate-free sequence. */
public final class SeriesMerge {

  private SeriesMerge() {}

  /**
   * Chunks are joined in time order; where two chunks hold the same timestamp, the one given
   * later wins (pass chunks oldest write first).
   */
  public static Points merge(List<Points> chunks) {
    ValueType type = commonType(chunks);
    // one pass over the points in the usual case: chunks strictly in order, laid end to end
    boolean strict = chunks.stream().allMatch(Points::isStrictlyIncreasing);
    boolean sorted = strict || chunks.stream().allMatch(Points::isSorted);
    List<Points> ordered = sorted ? laidEndToEnd(chunks) : null;
    if (ordered == null && sorted) {
      // records that overlap in time, each in order (a series sent out of order, or by two
      // clients): merged in write order, linear instead of a sort of the whole series
      List<Points> converted = new ArrayList<>(chunks.size());
      chunks.forEach(chunk -> converted.add(as(type, chunk)));
      Points merged = inWriteOrder(converted);
      merged.sortAndDeduplicate(); // sorted already: collapses equal timestamps only
      return merged;
    }
    if (ordered != null) {
      // records of one series rarely overlap: laid end to end they need no sort
      chunks = ordered;
    }
    int total = 0;
    for (Points chunk : chunks) {
      total += chunk.size();
    }
    Points merged = new Points(type, total);
    for (Points chunk : chunks) {
      merged.addAll(as(type, chunk));
    }
    if (!strict || ordered == null) {
      // chunks each strictly in order and none reaching the next are so together; others are not
      merged.sortAndDeduplicate();
    }
    return merged;
  }

  /**
   * Sorted chunks merged pairwise, neighbours first, so that among equal timestamps the earlier
   * chunk's points stay first at every level: the stable sort of the chunks laid end to end.
   */
  private static Points inWriteOrder(List<Points> chunks) {
    List<Points> level = chunks;
    while (level.size() > 1) {
      List<Points> next = new ArrayList<>((level.size() + 1) / 2);
      for (int i = 0; i < level.size(); i += 2) {
        next.add(i + 1 < level.size() ? Points.mergeSorted(level.get(i), level.get(i + 1)) : level.get(i));
      }
      level = next;
    }
    return level.get(0);
  }

  /** A chunk as points of the join's type (numbers as doubles, anything as strings). */
  private static Points as(ValueType type, Points chunk) {
    if (chunk.type() == type) {
      return chunk;
    }
    Points converted = new Points(type, chunk.size());
    for (int i = 0; i < chunk.size(); i++) {
      if (type == ValueType.STRING) {
        converted.addText(chunk.timestamp(i), chunk.text(i));
      } else {
        converted.add(chunk.timestamp(i), chunk.value(i));
      }
    }
    return converted;
  }

  /**
   * The chunks ordered by their first timestamp if each is sorted and none overlaps another
   * (then which write is later does not matter); null otherwise.
   */
  static List<Points> disjointInTimeOrder(List<Points> chunks) {
    return chunks.stream().allMatch(Points::isSorted) ? laidEndToEnd(chunks) : null;
  }

  /** Sorted chunks ordered by their first timestamp if none overlaps another; null otherwise. */
  private static List<Points> laidEndToEnd(List<Points> chunks) {
    List<Points> ordered = new ArrayList<>(chunks.size());
    for (Points chunk : chunks) {
      if (chunk.size() > 0) {
        ordered.add(chunk);
      }
    }
    ordered.sort(Comparator.comparingLong(chunk -> chunk.timestamp(0)));
    for (int i = 1; i < ordered.size(); i++) {
      Points before = ordered.get(i - 1);
      if (before.timestamp(before.size() - 1) >= ordered.get(i).timestamp(0)) {
        return null;
      }
    }
    return ordered;
  }

  /**
   * A join over series of different value types (cj without type) yields doubles when all are
   * numbers, strings otherwise.
   */
  static ValueType commonType(List<Points> chunks) {
    ValueType type = chunks.isEmpty() ? ValueType.DOUBLE : chunks.get(0).type();
    boolean numeric = true;
    boolean mixed = false;
    for (Points chunk : chunks) {
      mixed |= chunk.type() != type;
      numeric &= chunk.type().isNumeric();
    }
    if (!mixed) {
      return type;
    }
    return numeric ? ValueType.DOUBLE : ValueType.STRING;
  }
}
