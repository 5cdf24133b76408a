package io.chronix.core.series;

import java.util.List;

/** Joins the decoded chunks of one series into one time-ordered, duplicate-free sequence. */
public final class SeriesMerge {

  private SeriesMerge() {}

  /**
   * Chunks are concatenated in the given order, then sorted; where two chunks hold the same
   * timestamp, the one given later wins (pass chunks oldest write first).
   */
  public static Points merge(List<Points> chunks) {
    int total = 0;
    for (Points chunk : chunks) {
      total += chunk.size();
    }
    ValueType type = commonType(chunks);
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
