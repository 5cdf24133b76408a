package io.chronix.solr.query;

import io.chronix.core.rollup.BucketStats;
import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.Arrays;
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
   * fields ({@link #sortKey}). Each series' join key is made a string once: building the whole
   * sort key per comparison made sorting ten thousand series cost seconds, and building it once
   * per series (the fields as text) was still a fifth of listing them. The series of one core's
   * answer have distinct join keys, so the fields decide only where one key's text begins
   * another's; there the whole sort keys are compared, giving the order of {@link #sortKey}.
   */
  public static void sort(List<JoinedSeries> series) {
    int n = series.size();
    String[] joinKeys = new String[n];
    String[] sortKeys = new String[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      joinKeys[i] = series.get(i).joinKeyText();
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> {
      String joinA = joinKeys[a];
      String joinB = joinKeys[b];
      int byJoinKey = joinA.compareTo(joinB);
      if (byJoinKey != 0 && !joinA.startsWith(joinB) && !joinB.startsWith(joinA)) {
        return byJoinKey;
      }
      if (sortKeys[a] == null) {
        sortKeys[a] = series.get(a).sortKey();
      }
      if (sortKeys[b] == null) {
        sortKeys[b] = series.get(b).sortKey();
      }
      return sortKeys[a].compareTo(sortKeys[b]);
    });
    List<JoinedSeries> sorted = new ArrayList<>(n);
    for (Integer i : order) {
      sorted.add(series.get(i));
    }
    series.clear();
    series.addAll(sorted);
  }

  /** What orders series of one answer and the parts of several shards' answers: join key, then fields. */
  public String sortKey() {
    return joinKeyText() + fields;
  }

  private String joinKeyText() {
    StringBuilder key = new StringBuilder();
    for (String part : joinKey) {
      // \u0000 sorts first: records lacking a join field come before those that have it
      key.append(part == null ? "\u0000" : "\u0001" + part).append('\u0002');
    }
    return key.toString();
  }
}
