package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.KeptRow;
import java.util.Map;

/**
 * A series as the series endpoint lists it: its label set and, for a row the store keeps between
 * requests ({@link KeptRow}), the set as the endpoint writes it in JSON, made once and kept with
 * the row. Making the label set and writing it were half of listing a metric's 1,000 series once
 * the store kept the rows themselves (docs/benchmarks.md).
 *
 * @param json the label set's JSON object as {@link ApiWriter#labels} writes it, or null where it is
 *     written anew
 */
record ListedSeries(Labels labels, byte[] json) {

  /** What the row holds for its derived value, as {@link KeptRow#DERIVED_BYTES} counts it. */
  static long bytes(Labels labels, byte[] json) {
    return 64 + 8L * labels.size() + json.length;
  }

  /**
   * The series of a row of fields as the plugin lists it: kept with the row where the store keeps
   * it and it fits what the store counts for it, made anew otherwise.
   */
  static ListedSeries of(Map<String, ?> fields, SeriesLabels.Shared shared) {
    if (!(fields instanceof KeptRow kept)) {
      return new ListedSeries(SeriesLabels.of(fields, shared), null);
    }
    if (kept.derived() instanceof ListedSeries listed) {
      return listed;
    }
    Labels labels = SeriesLabels.of(fields, shared);
    byte[] json = ApiWriter.labelsJson(labels);
    ListedSeries listed = new ListedSeries(labels, json);
    if (bytes(labels, json) <= KeptRow.DERIVED_BYTES) {
      kept.keep(listed);
    }
    return listed;
  }
}
