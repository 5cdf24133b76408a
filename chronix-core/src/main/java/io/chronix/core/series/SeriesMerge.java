package io.chronix.core.series;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Joins the decoded chunks of one series into one time-ordered, duplicate-free sequence. */
public final class SeriesMerge {

  private SeriesMerge() {}

  /**
   * Chunks are concatenated in the given order, then sorted; where two chunks hold the same
   * timestamp, the one given later wins (pass chunks oldest write first).
   */
  public static Points merge(List<Points> chunks) {
    ValueType type = commonType(chunks);
    List<Points> ordered = disjointInTimeOrder(chunks);
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
      if (chunk.type() == type) {
        merged.addAll(chunk);
      } else {
        for (int i = 0; i < chunk.size(); i++) {
          if (type == ValueType.STRING) {
            merged.addText(chunk.timestamp(i), chunk.text(i));
          } else {
            merged.add(chunk.timestamp(i), chunk.value(i));
          }
        }
      }
    }
    merged.sortAndDeduplicate();
    return merged;
  }

  /**
   * The chunks ordered by their first timestamp if each is sorted and none overlaps another
   * (then which write is later does not matter); null otherwise.
   */
  static List<Points> disjointInTimeOrder(List<Points> chunks) {
    List<Points> ordered = new ArrayList<>(chunks.size());
    for (Points chunk : chunks) {
      if (chunk.size() > 0) {
        if (!chunk.isSorted()) {
          return null;
        }
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
