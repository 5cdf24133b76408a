package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.ByNames;
import io.chronix.core.series.PrometheusNames;
import io.chronix.core.series.SortedArrayMap;
import java.util.Collection;
import java.util.Map;
import org.apache.solr.common.SolrDocument;

/** The PromQL labels of a series as the store answers it: name and attributes, mapped as docs/promql.md says. */
public final class SeriesLabels {

  /** Kept for a field that shows as no label: no label's name is empty. */
  private static final String NO_LABEL = "";

  private SeriesLabels() {}

  public static Labels of(SolrDocument document) {
    return of(document, new Shared());
  }

  /** As {@link #of(SolrDocument)}, with the names and values of the series read before it. */
  public static Labels of(SolrDocument document, Shared shared) {
    return of((Iterable<Map.Entry<String, Object>>) document, shared);
  }

  /** The labels of a series given as its fields, a value (or values, the first taken) each. */
  public static Labels of(Map<String, ?> fields) {
    return of(fields, new Shared());
  }

  /**
   * As {@link #of(Map)}, with the names and values of the series read before it. Also the fields
   * of a series the plugin answers in the process, each with its values in order.
   */
  public static Labels of(Map<String, ?> fields, Shared shared) {
    if (fields instanceof SortedArrayMap<?> sorted) {
      Labels labels = shared.inLayout(sorted);
      if (labels != null) {
        return labels;
      }
    }
    return of(fields.entrySet(), shared);
  }

  private static Labels of(Iterable<? extends Map.Entry<String, ?>> fields, Shared shared) {
    Labels.Builder labels = new Labels.Builder();
    for (Map.Entry<String, ?> field : fields) {
      String label = shared.labelOf(field.getKey());
      if (label != null) {
        labels.set(label, shared.value(text(field.getValue())));
      }
    }
    return labels.build();
  }

  /**
   * The labels and values of the series read by one request, each kept once. A listing of a
   * thousand series asks the same few fields a thousand times. Their values come as a String each
   * from every record, and sorting label sets compared equal values character by character (the
   * quick compiler's String.compareTo is a loop): sorting the 10,000 series of a {@code topk} was
   * a sixth of its request thread. One instance a value lets the comparison see them equal at once.
   */
  public static final class Shared {
    private final Map<String, String> labelOfField = new java.util.HashMap<>();
    private final Map<String, String> values = new java.util.HashMap<>();

    /** {@link SeriesLabels#labelOf}, kept (a field without a label as {@link #NO_LABEL}). */
    String labelOf(String field) {
      String label = labelOfField.get(field);
      if (label == null) {
        label = SeriesLabels.labelOf(field);
        labelOfField.put(field, label == null ? NO_LABEL : label);
        return label;
      }
      return label.equals(NO_LABEL) ? null : label;
    }

    private final ByNames<SortedArrayMap<?>, FieldLayout> layouts = new ByNames<>(fields -> FieldLayout.of(fields, this));

    /**
     * The labels of fields with the names of the fields before them, from the layout made for
     * those; null where a value is empty (no label, which the builder decides). A listing's rows
     * share their names array, so this mostly compares a reference.
     */
    Labels inLayout(SortedArrayMap<?> fields) {
      FieldLayout layout = layouts.apply(fields, 0);
      String[] values = new String[layout.fieldAt.length];
      for (int i = 0; i < values.length; i++) {
        String value = text(fields.value(layout.fieldAt[i]));
        if (value.isEmpty()) {
          return null;
        }
        values[i] = value(value);
      }
      return layout.labels.labels(values);
    }

    /** The instance kept for an equal value, this one where it is the first. */
    String value(String value) {
      String kept = values.putIfAbsent(value, value);
      return kept == null ? value : kept;
    }
  }

  /**
   * Which field gives each label of a layout of fields, the labels in their order. Where two
   * fields show as one label ({@code name} and {@code tag___name__}), the later gives it, as the
   * builder lets a later value replace an earlier one.
   */
  private record FieldLayout(Labels.Layout labels, int[] fieldAt) {
    static FieldLayout of(SortedArrayMap<?> fields, Shared shared) {
      java.util.TreeMap<String, Integer> byLabel = new java.util.TreeMap<>();
      for (int i = 0; i < fields.size(); i++) {
        String label = shared.labelOf(fields.name(i));
        if (label != null) {
          byLabel.put(label, i);
        }
      }
      int[] fieldAt = new int[byLabel.size()];
      int at = 0;
      for (int field : byLabel.values()) {
        fieldAt[at++] = field;
      }
      return new FieldLayout(new Labels.Layout(byLabel.keySet().toArray(new String[0])), fieldAt);
    }
  }

  /** The label a field shows as: {@code __name__} for the name, an attribute's label, or null (type, origin, ...). */
  static String labelOf(String field) {
    return field.equals(RecordFields.NAME) ? Labels.METRIC_NAME : PrometheusNames.labelOf(field);
  }

  /** A field of a joined series has one value; a series joined from several records could have more. */
  private static String text(Object value) {
    if (value instanceof Collection<?> values) {
      return values.isEmpty() ? "" : String.valueOf(values.iterator().next());
    }
    return String.valueOf(value);
  }
}
