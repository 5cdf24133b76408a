package io.chronix.ingest.transfer;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.apache.solr.common.SolrDocument;

/**
 * One series of an export whose points in the range are more than the store decodes for one query,
 * written as consecutive lines of the same labels, each a slice of time: the format allows a series
 * on several lines, and VictoriaMetrics' own export writes one a block. The slices divide the
 * series' span evenly by its point count ({@link ExportPages#TARGET_POINTS} each); a slice the store
 * still refuses (points are seldom spread evenly) is asked again as two halves.
 */
final class SeriesSlices {

  /** Series a slice's query may answer: the series itself and those with more fields than it. */
  static final int MAX_MATCHES = 1_000;
  /** Slices a span is divided into at first, whatever its count. */
  static final int MAX_FIRST_SLICES = 10_000;

  /** A slice of the exact series: its labels and points. */
  record Slice(Labels labels, Points points) {}

  /** The store refused a slice for the points it would decode. */
  static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  /** How a slice is read from the store. */
  @FunctionalInterface
  interface Store {
    /**
     * The series with exactly {@code fields} and its points in [{@code fromMillis}, {@code toMillis}]; null where it has none.
     *
     * @throws Refused where the store refuses it for its points
     */
    Slice slice(Map<String, String> fields, long fromMillis, long toMillis) throws IOException;
  }

  private final Store store;
  private final long startMillis;
  private final long endMillis;

  /**
   * @param startMillis the export's range's start, inclusive
   * @param endMillis its end, inclusive
   */
  SeriesSlices(Store store, long startMillis, long endMillis) {
    this.store = store;
    this.startMillis = startMillis;
    this.endMillis = endMillis;
  }

  /**
   * Writes the series that {@code series} names (its fields, {@code start}, {@code end} and
   * {@code count} in the range, as the store answers a series without points) slice by slice.
   */
  void write(SolrDocument series, JsonLinesWriter writer) throws IOException {
    Map<String, String> fields = seriesFields(series);
    long from = Math.max(startMillis, number(series, RecordFields.START, startMillis));
    long to = Math.min(endMillis, number(series, RecordFields.END, endMillis));
    long count = number(series, RecordFields.COUNT, ExportPages.TARGET_POINTS * 2);
    long slices = Math.max(2, Math.min(MAX_FIRST_SLICES, (count + ExportPages.TARGET_POINTS - 1) / ExportPages.TARGET_POINTS));
    Deque<long[]> pending = new ArrayDeque<>();
    long width = Math.max(1, (to - from) / slices + 1);
    for (long a = from; a <= to; a = a + width < a ? to + 1 : a + width) {
      pending.addLast(new long[] {a, Math.min(to, a + width - 1)});
    }
    while (!pending.isEmpty()) {
      long[] next = pending.pollFirst();
      Slice slice;
      try {
        slice = store.slice(fields, next[0], next[1]);
      } catch (Refused e) {
        if (next[0] == next[1]) {
          throw new IOException("export: series " + fields + " has more points in the millisecond " + next[0]
              + " than the store decodes for one query: " + e.getMessage(), e);
        }
        long middle = next[0] + (next[1] - next[0]) / 2;
        pending.addFirst(new long[] {middle + 1, next[1]});
        pending.addFirst(new long[] {next[0], middle});
        continue;
      }
      if (slice != null && !slice.points().isEmpty()) {
        writer.write(slice.labels(), slice.points());
      }
    }
  }

  /** The fields that tell the document's series apart (name, type, attributes), a value each. */
  static Map<String, String> seriesFields(SolrDocument document) {
    Map<String, String> fields = new TreeMap<>();
    for (Map.Entry<String, Object> field : document) {
      if (RecordFields.isSeriesField(field.getKey())) {
        Object value = field.getValue();
        if (value instanceof Collection<?> values) {
          value = values.isEmpty() ? "" : values.iterator().next();
        }
        fields.put(field.getKey(), String.valueOf(value));
      }
    }
    return fields;
  }

  private static long number(SolrDocument document, String field, long fallback) {
    return document.getFieldValue(field) instanceof Number number ? number.longValue() : fallback;
  }
}
