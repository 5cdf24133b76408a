package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.PrometheusNames;
import java.util.Collection;
import java.util.Map;
import org.apache.solr.common.SolrDocument;

/** The PromQL labels of a series as the store answers it: name and attributes, mapped as docs/promql.md says. */
public final class SeriesLabels {

  private SeriesLabels() {}

  public static Labels of(SolrDocument document) {
    Labels.Builder labels = new Labels.Builder();
    for (String field : document.getFieldNames()) {
      String label = labelOf(field);
      if (label != null) {
        labels.set(label, text(document.getFieldValue(field)));
      }
    }
    return labels.build();
  }

  /** The labels of a series given as its fields, one value each. */
  public static Labels of(Map<?, ?> fields) {
    Labels.Builder labels = new Labels.Builder();
    for (Map.Entry<?, ?> field : fields.entrySet()) {
      String label = labelOf((String) field.getKey());
      if (label != null) {
        labels.set(label, String.valueOf(field.getValue()));
      }
    }
    return labels.build();
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
