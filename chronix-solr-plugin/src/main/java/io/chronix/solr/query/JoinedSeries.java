package io.chronix.solr.query;

import io.chronix.core.rollup.BucketStats;
import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The records of one join key, decoded, merged, de-duplicated and clipped; or, for queries that
 * ask only for aggregations statistics answer, their {@link RecordSummary} (then no points).
 * {@code downsampled}: the points are already the query's first function, a {@code downsample}
 * answered from a rollup tier ({@link io.chronix.solr.rollup.RollupPlan}). {@code windows}: instead of
 * points, the series' PromQL windows in a rollup tier ({@link SeriesCollector#collectWindows}).
 */
public record JoinedSeries(List<String> joinKey, SeriesFields fields, Points points, RecordSummary summary,
    boolean downsampled, BucketStats windows) {

  public JoinedSeries(List<String> joinKey, SeriesFields fields, Points points) {
    this(joinKey, fields, points, null, false, null);
  }

  public JoinedSeries(List<String> joinKey, SeriesFields fields, Points points, RecordSummary summary) {
    this(joinKey, fields, points, summary, false, null);
  }

  /**
   * Sorts into the stable answer order: by join key (missing values first), then by the joined
   * fields. Each series' sort key is built once: building it per comparison made sorting ten
   * thousand series cost seconds.
   */
  public static void sort(List<JoinedSeries> series) {
    String[] keys = new String[series.size()];
    Integer[] order = new Integer[series.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = series.get(i).sortKey();
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparing(i -> keys[i]));
    List<JoinedSeries> sorted = new ArrayList<>(series.size());
    for (Integer i : order) {
      sorted.add(series.get(i));
    }
    series.clear();
    series.addAll(sorted);
  }

  public String sortKey() {
    StringBuilder key = new StringBuilder();
    for (String part : joinKey) {
      // \u0000 sorts first: records lacking a join field come before those that have it
      key.append(part == null ? "\u0000" : "\u0001" + part).append('\u0002');
    }
    return key.append(fields).toString();
  }
}
