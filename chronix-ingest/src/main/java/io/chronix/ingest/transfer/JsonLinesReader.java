package io.chronix.ingest.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.prometheus.PrometheusLabels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * VictoriaMetrics' JSON-lines import format (docs/formats.md, "Export and import"): one series a
 * line, {@code {"metric":{"__name__":...,labels},"values":[...],"timestamps":[ms,...]}}. Labels
 * become the series' name and attributes as with remote write ({@link PrometheusLabels}); values
 * are doubles, bit for bit as written (NaN, Inf and -Inf as VictoriaMetrics writes them too);
 * timestamps are epoch milliseconds. Our extension: a line whose values are all arrays of such
 * numbers ({@code "values":[[0.5,0.25],[0.75,0.5]]}) writes an {@code array} series (docs/lifecycle.md,
 * "Array values"). A line is taken whole or not at all: a bad one is reported
 * by its 1-based number and delivers nothing, the others are kept.
 */
public final class JsonLinesReader {

  private static final long MAX_MILLIS = Long.MAX_VALUE / 1_000_000L;

  private final ObjectMapper json = JsonMapper.builder(JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()).build();

  public ParseResult parse(String body, PointSink points) throws IOException {
    List<LineError> errors = new ArrayList<>();
    long accepted = 0;
    int lineNumber = 0;
    int start = 0;
    while (start < body.length()) {
      int end = body.indexOf('\n', start);
      if (end < 0) {
        end = body.length();
      }
      lineNumber++;
      String line = body.substring(start, end).strip();
      start = end + 1;
      if (line.isEmpty()) {
        continue;
      }
      try {
        accepted += parseLine(line, points);
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(lineNumber, e.getMessage()));
      }
    }
    return new ParseResult(accepted, errors);
  }

  private int parseLine(String line, PointSink points) throws IOException {
    JsonNode series;
    try {
      series = json.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
    if (series == null || !series.isObject()) {
      throw new IllegalArgumentException("expected a JSON object with metric, values and timestamps");
    }
    JsonNode metric = series.get("metric");
    if (metric == null || !metric.isObject()) {
      throw new IllegalArgumentException("\"metric\" must be an object of labels");
    }
    PrometheusLabels labels = new PrometheusLabels();
    for (Iterator<Map.Entry<String, JsonNode>> it = metric.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> label = it.next();
      if (!label.getValue().isTextual()) {
        throw new IllegalArgumentException("label '" + label.getKey() + "' must be a string");
      }
      labels.add(label.getKey(), label.getValue().asText());
    }
    SeriesKey key = labels.key();
    JsonNode values = series.get("values");
    JsonNode timestamps = series.get("timestamps");
    if (values == null || !values.isArray() || timestamps == null || !timestamps.isArray()) {
      throw new IllegalArgumentException("\"values\" and \"timestamps\" must be arrays");
    }
    if (values.size() != timestamps.size()) {
      throw new IllegalArgumentException(values.size() + " values but " + timestamps.size() + " timestamps");
    }
    boolean arrays = values.size() > 0 && values.get(0).isArray();
    long[] nanos = new long[values.size()];
    double[] numbers = arrays ? null : new double[values.size()];
    double[][] vectors = arrays ? new double[values.size()][] : null;
    for (int i = 0; i < values.size(); i++) {
      JsonNode t = timestamps.get(i);
      if (!t.isIntegralNumber() || !t.canConvertToLong()) {
        throw new IllegalArgumentException("timestamp " + (i + 1) + " is not an integer of milliseconds: " + t);
      }
      long millis = t.asLong();
      if (millis > MAX_MILLIS || millis < -MAX_MILLIS) {
        throw new IllegalArgumentException("timestamp " + (i + 1) + ": " + millis
            + " ms is beyond the nanosecond range (year 2262)");
      }
      nanos[i] = millis * 1_000_000L;
      if (arrays) {
        vectors[i] = array(values.get(i), i);
      } else {
        numbers[i] = value(values.get(i), "value " + (i + 1));
      }
    }
    if (arrays) {
      SeriesKey arrayKey = new SeriesKey(key.name(), ValueType.ARRAY.typeName(), key.attributes());
      for (int i = 0; i < nanos.length; i++) {
        points.acceptArray(arrayKey, nanos[i], vectors[i]);
      }
    } else {
      for (int i = 0; i < nanos.length; i++) {
        points.accept(key, nanos[i], numbers[i]);
      }
    }
    return nanos.length;
  }

  private static double[] array(JsonNode value, int index) {
    if (!value.isArray()) {
      throw new IllegalArgumentException("value " + (index + 1) + " is not an array like the first value: " + value);
    }
    if (value.size() > Points.MAX_ARRAY_LENGTH) {
      throw new IllegalArgumentException("value " + (index + 1) + " has " + value.size() + " elements, more than the "
          + Points.MAX_ARRAY_LENGTH + " an array may have");
    }
    double[] array = new double[value.size()];
    for (int k = 0; k < array.length; k++) {
      array[k] = value(value.get(k), "element " + k + " of value " + (index + 1));
    }
    return array;
  }

  private static double value(JsonNode value, String what) {
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isTextual()) {
      // VictoriaMetrics' own spelling of the non-finite values, in case a writer quotes them
      switch (value.asText()) {
        case "NaN": return Double.NaN;
        case "Inf": case "+Inf": return Double.POSITIVE_INFINITY;
        case "-Inf": return Double.NEGATIVE_INFINITY;
        default: break;
      }
    }
    throw new IllegalArgumentException(what + " is not a number: " + value);
  }
}
