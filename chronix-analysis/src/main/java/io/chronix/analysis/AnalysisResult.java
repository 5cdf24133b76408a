package io.chronix.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The verdict of an analysis and the numbers behind it. Detail values are restricted to types that
 * every response writer (JSON, javabin, XML) renders without custom code.
 */
public record AnalysisResult(boolean matches, Map<String, Object> details) {

  public AnalysisResult {
    LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : details.entrySet()) {
      Object value = entry.getValue();
      if (!(value instanceof Double || value instanceof Long || value instanceof Boolean
          || value instanceof String)) {
        throw new IllegalArgumentException("detail '" + entry.getKey()
            + "' must be a Double, Long, Boolean or String, got " + value);
      }
      copy.put(entry.getKey(), value);
    }
    details = Collections.unmodifiableMap(copy);
  }
}
