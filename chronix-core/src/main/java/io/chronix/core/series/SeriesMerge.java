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
    Points merged = new Points(total);
    for (Points chunk : chunks) {
      merged.addAll(chunk);
    }
    merged.sortAndDeduplicate();
    return merged;
  }
}
