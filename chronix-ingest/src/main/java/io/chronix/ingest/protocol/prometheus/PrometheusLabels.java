package io.chronix.ingest.protocol.prometheus;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.core.series.SeriesOrigin;
import java.util.HashMap;
import java.util.Map;

/**
 * A series named by Prometheus labels, as the store keeps it: {@code __name__} is the name, the
 * other labels become attributes ({@link Attributes}; a label with an empty value is absent, as in
 * Prometheus). Shared by remote write and the JSON-lines import, which take the same labels.
 */
public final class PrometheusLabels {

  public static final String NAME_LABEL = "__name__";

  private String name;
  private final Map<String, String> attributes = new HashMap<>();

  /** @throws IllegalArgumentException naming the label when it cannot be taken */
  public PrometheusLabels add(String label, String value) {
    if (label.equals(NAME_LABEL)) {
      if (name != null) {
        throw new IllegalArgumentException("label " + NAME_LABEL + " appears twice");
      }
      name = value;
      return this;
    }
    if (value.isEmpty()) {
      return this;
    }
    String key = Attributes.key(label);
    if (attributes.put(key, Attributes.value(key, value)) != null) {
      throw new IllegalArgumentException("label '" + label + "' appears twice or clashes with another "
          + "label stored as attribute '" + key + "'");
    }
    return this;
  }

  /** @throws IllegalArgumentException when no {@code __name__} was given */
  public String name() {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("no metric name (label " + NAME_LABEL + ")");
    }
    return name;
  }

  public Map<String, String> attributes() {
    return attributes;
  }

  public SeriesKey key() {
    return SeriesKey.metric(name(), Attributes.withOrigin(attributes, SeriesOrigin.PROMETHEUS));
  }
}
