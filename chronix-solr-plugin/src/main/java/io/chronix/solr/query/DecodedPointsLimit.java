package io.chronix.solr.query;

import io.chronix.core.budget.LimitRefusal;
import io.chronix.core.budget.PointBudget;
import java.util.Locale;
import org.apache.solr.common.SolrException;

/**
 * The most points one query may decode, from the configset's {@code maxDecodedPoints}: a count, or
 * {@code auto}, {@link PointBudget#pointsForHeap} of the JVM's heap (5.6 M points with the
 * launcher's 384 MB, of which the JVM reports 341 MB). The fixed default before, 50 M points, let
 * one query over all of a 16 M-point store run the default heap out of memory (an error 500 and a
 * server that had to be restarted; docs/benchmarks.md).
 */
public final class DecodedPointsLimit {

  public static final String AUTO = "auto";

  private DecodedPointsLimit() {}

  /** The refusal of a query that would decode more than {@code limit} of {@code what} (points, array elements), marked as such ({@link LimitRefusal}). */
  static SolrException exceeded(long limit, String verb, String what) {
    SolrException refusal = new SolrException(SolrException.ErrorCode.BAD_REQUEST, "the query " + verb
        + " more than " + limit + " " + what + " (chronix.maxDecodedPoints); narrow the time range or the series");
    refusal.setMetadata(LimitRefusal.METADATA_KEY, Long.toString(limit));
    return refusal;
  }

  /** {@link PointBudget#pointsForHeap} of this JVM's maximum heap. */
  public static long auto() {
    return PointBudget.pointsForThisHeap();
  }

  static long ofHeap(long maxHeapBytes) {
    return PointBudget.pointsForHeap(maxHeapBytes);
  }

  /**
   * The limit in points.
   *
   * @throws IllegalArgumentException unless the setting is {@code auto} or a whole number above 0
   */
  public static long parse(String setting) {
    String value = setting.trim();
    if (value.toLowerCase(Locale.ROOT).equals(AUTO)) {
      return auto();
    }
    long points;
    try {
      points = Long.parseLong(value);
    } catch (NumberFormatException e) {
      points = 0;
    }
    if (points <= 0) {
      throw new IllegalArgumentException("maxDecodedPoints must be 'auto' or a whole number of points above 0, not '"
          + setting + "'");
    }
    return points;
  }
}
