package io.chronix.ingest.promql;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.chronix.core.series.PrometheusNames;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Label names as one answer writes them, escaped as Prometheus shows them and encoded for JSON
 * once a name: a listing of a thousand series writes the same few names a thousand times, and
 * escaping and encoding each anew was a tenth of it. One instance an answer, on its thread.
 */
final class WrittenLabelNames {

  private final Map<String, SerializedString> written = new HashMap<>();

  void writeFieldName(JsonGenerator json, String name) throws IOException {
    SerializedString text = written.get(name);
    if (text == null) {
      text = new SerializedString(PrometheusNames.escape(name));
      written.put(name, text);
    }
    json.writeFieldName(text);
  }
}
