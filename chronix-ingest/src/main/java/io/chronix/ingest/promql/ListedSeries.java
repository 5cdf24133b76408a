package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.KeptRow;
import java.util.Arrays;
import java.util.Map;

/**
 * A series as the series endpoint lists it: its label set and, for a row the store keeps between
 * requests ({@link KeptRow}), the set as the endpoint writes it in JSON and its order key, made once
 * and kept with the row. Making the label set and writing it were half of listing a metric's 1,000
 * series once the store kept the rows themselves, sorting the sets a fifth of a live listing once
 * its lookups were cheap (docs/benchmarks.md).
 *
 * @param json the label set's JSON object as {@link ApiWriter#labels} writes it, or null where it is
 *     written anew
 * @param order the label set's {@link Labels#orderKey}, or null where the sets are compared label by label
 */
record ListedSeries(Labels labels, byte[] json, byte[] order) implements Comparable<ListedSeries> {

  /** A series listed without a kept row. */
  ListedSeries(Labels labels) {
    this(labels, null, null);
  }

  /** What the row holds for its derived value, as {@link KeptRow#DERIVED_BYTES} counts it. */
  static long bytes(Labels labels, byte[] json, byte[] order) {
    return 80 + 8L * labels.size() + json.length + (order == null ? 0 : order.length);
  }

  /**
   * The series of a row of fields as the plugin lists it: kept with the row where the store keeps
   * it and it fits what the store counts for it, made anew otherwise.
   */
  static ListedSeries of(Map<String, ?> fields, SeriesLabels.Shared shared) {
    if (!(fields instanceof KeptRow kept)) {
      return new ListedSeries(SeriesLabels.of(fields, shared));
    }
    if (kept.derived() instanceof ListedSeries listed) {
      return listed;
    }
    Labels labels = SeriesLabels.of(fields, shared);
    byte[] json = ApiWriter.labelsJson(labels);
    byte[] order = labels.orderKey();
    ListedSeries listed = new ListedSeries(labels, json, order);
    if (bytes(labels, json, order) <= KeptRow.DERIVED_BYTES) {
      kept.keep(listed);
    }
    return listed;
  }

  /** The label sets' order ({@link Labels#compareTo}), by the order keys where both have one. */
  @Override
  public int compareTo(ListedSeries other) {
    if (order != null && other.order != null) {
      return Arrays.compareUnsigned(order, other.order);
    }
    return labels.compareTo(other.labels);
  }
}
