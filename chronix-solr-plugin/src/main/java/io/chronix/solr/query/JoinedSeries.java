package io.chronix.solr.query;

import io.chronix.core.series.Points;
import java.util.Comparator;
import java.util.List;

/** The records of one join key, decoded, merged, de-duplicated and clipped. */
public record JoinedSeries(List<String> joinKey, SeriesFields fields, Points points) {

  /** Stable answer order: by join key (missing values first), then by the joined fields. */
  public static final Comparator<JoinedSeries> ORDER =
      Comparator.comparing(JoinedSeries::sortKey);

  public String sortKey() {
    StringBuilder key = new StringBuilder();
    for (String part : joinKey) {
      // \u0000 sorts first: records lacking a join field come before those that have it
      key.append(part == null ? "\u0000" : "\u0001" + part).append('\u0002');
    }
    return key.append(fields).toString();
  }
}
