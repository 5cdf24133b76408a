package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.PrometheusNames;
import java.util.Collection;
import java.util.Map;
import org.apache.solr.common.SolrDocument;

/** The PromQL labels of a series as the store answers it: name and attributes, mapped as docs/promql.md says. */
public final class SeriesLabels {

  /** Kept for a field that shows as no label: no label's name is empty. */
  private static final String NO_LABEL = "";

  private SeriesLabels() {}

  public static Labels of(SolrDocument document) {
    return of(document, new java.util.HashMap<>());
  }

  /** As {@link #of(SolrDocument)}, each field's label looked up in {@code labelOfField} first and kept there. */
  public static Labels of(SolrDocument document, Map<String, String> labelOfField) {
    return of((Iterable<Map.Entry<String, Object>>) document, labelOfField);
  }

  /** The labels of a series given as its fields, a value (or values, the first taken) each. */
  public static Labels of(Map<String, ?> fields) {
    return of(fields, new java.util.HashMap<>());
  }

  /**
   * As {@link #of(Map)}, each field's label looked up in {@code labelOfField} first and kept there:
   * a listing of a thousand series asks the same few fields a thousand times. Also the fields of a
   * series the plugin answers in the process, each with its values in order.
   */
  public static Labels of(Map<String, ?> fields, Map<String, String> labelOfField) {
    return of(fields.entrySet(), labelOfField);
  }

  private static Labels of(Iterable<? extends Map.Entry<String, ?>> fields, Map<String, String> labelOfField) {
    Labels.Builder labels = new Labels.Builder();
    for (Map.Entry<String, ?> field : fields) {
      String label = cachedLabelOf(field.getKey(), labelOfField);
      if (label != null) {
        labels.set(label, text(field.getValue()));
      }
    }
    return labels.build();
  }

  /** {@link #labelOf}, kept in {@code labelOfField} (a field without a label as {@link #NO_LABEL}). */
  private static String cachedLabelOf(String field, Map<String, String> labelOfField) {
    String label = labelOfField.get(field);
    if (label == null) {
      label = labelOf(field);
      labelOfField.put(field, label == null ? NO_LABEL : label);
      return label;
    }
    return label.equals(NO_LABEL) ? null : label;
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
