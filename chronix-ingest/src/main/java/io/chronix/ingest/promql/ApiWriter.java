package io.chronix.ingest.promql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.Labels;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import javax.servlet.http.HttpServletResponse;

/**
 * Prometheus' JSON envelopes, exactly: {@code {"status":"success","data":...,"warnings":[...]}}
 * and {@code {"status":"error","errorType":"bad_data","error":"..."}}; timestamps as float
 * seconds, values as strings ("NaN", "+Inf"), label names escaped where they are no valid
 * Prometheus names. Compressed for clients that accept gzip by the server (ResponseCompression).
 */
final class ApiWriter {

  private static final JsonFactory JSON = new JsonFactory();

  /** Writes a successful answer's data member. */
  @FunctionalInterface
  interface Data {
    void write(JsonGenerator json) throws IOException;
  }

  private ApiWriter() {}

  static void success(HttpServletResponse response, Data data, List<String> warnings,
      List<String> infos) throws IOException {
    response.setStatus(200);
    try (JsonGenerator json = open(response)) {
      json.writeStartObject();
      json.writeStringField("status", "success");
      json.writeFieldName("data");
      data.write(json);
      strings(json, "warnings", warnings);
      strings(json, "infos", infos);
      json.writeEndObject();
    }
  }

  static void error(HttpServletResponse response, PromQlException error) throws IOException {
    response.setStatus(status(error.type()));
    try (JsonGenerator json = open(response)) {
      json.writeStartObject();
      json.writeStringField("status", "error");
      json.writeStringField("errorType", error.type().apiName());
      json.writeStringField("error", error.getMessage());
      json.writeEndObject();
    }
  }

  static void notFound(HttpServletResponse response, String message) throws IOException {
    response.setStatus(404);
    try (JsonGenerator json = open(response)) {
      json.writeStartObject();
      json.writeStringField("status", "error");
      json.writeStringField("errorType", "not_found");
      json.writeStringField("error", message);
      json.writeEndObject();
    }
  }

  static int status(PromQlException.Type type) {
    switch (type) {
      case BAD_DATA:
        return 400;
      case EXECUTION:
        return 422;
      case TIMEOUT:
      case UNAVAILABLE:
        return 503;
      case CANCELED:
        return 499;
      default:
        return 500;
    }
  }

  private static JsonGenerator open(HttpServletResponse response) throws IOException {
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    // compressed, where the client accepts it, by the server's GzipHandler (ResponseCompression)
    return JSON.createGenerator(response.getOutputStream());
  }

  private static void strings(JsonGenerator json, String field, List<String> values) throws IOException {
    if (values == null || values.isEmpty()) {
      return;
    }
    json.writeArrayFieldStart(field);
    for (String value : values) {
      json.writeString(value);
    }
    json.writeEndArray();
  }

  /** A query result as {@code {"resultType":..., "result":...}}. */
  static void result(JsonGenerator json, QueryResult.Data data) throws IOException {
    json.writeStartObject();
    json.writeStringField("resultType", data.resultType());
    json.writeFieldName("result");
    if (data instanceof QueryResult.Scalar scalar) {
      point(json, scalar.time(), GoFloats.format(scalar.value()));
    } else if (data instanceof QueryResult.Text text) {
      point(json, text.time(), text.value());
    } else if (data instanceof QueryResult.Vector vector) {
      WrittenLabelNames names = new WrittenLabelNames();
      json.writeStartArray();
      for (QueryResult.Sample sample : vector.samples()) {
        json.writeStartObject();
        json.writeFieldName("metric");
        labels(json, sample.labels(), names);
        json.writeFieldName("value");
        point(json, vector.time(), GoFloats.format(sample.value()));
        json.writeEndObject();
      }
      json.writeEndArray();
    } else {
      WrittenLabelNames names = new WrittenLabelNames();
      json.writeStartArray();
      RangeValuesText values = new RangeValuesText();
      for (QueryResult.Series series : ((QueryResult.Matrix) data).series()) {
        json.writeStartObject();
        json.writeFieldName("metric");
        labels(json, series.labels(), names);
        json.writeFieldName("values");
        values.write(json, series.timestamps(), series.values(), series.size());
        json.writeEndObject();
      }
      json.writeEndArray();
    }
    json.writeEndObject();
  }

  private static void point(JsonGenerator json, long millis, String value) throws IOException {
    json.writeStartArray();
    if (millis % 1000 == 0) { // whole seconds, as steps mostly are: written as a number, no text made
      json.writeNumber(millis / 1000);
    } else {
      json.writeNumber(seconds(millis));
    }
    json.writeString(value);
    json.writeEndArray();
  }

  /** Epoch milliseconds as Prometheus prints them: float seconds, no trailing zeros. */
  static String seconds(long millis) {
    if (millis % 1000 == 0) {
      return Long.toString(millis / 1000);
    }
    return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }

  /** A label set's JSON object as {@link #labels} writes it, alone. */
  static byte[] labelsJson(Labels labels) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(128);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      labels(json, labels, new WrittenLabelNames());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // not from an array in memory
    }
    return out.toByteArray();
  }

  /** A label set as an object, its names written as {@code names} keeps them for the answer. */
  static void labels(JsonGenerator json, Labels labels, WrittenLabelNames names) throws IOException {
    json.writeStartObject();
    for (int i = 0; i < labels.size(); i++) {
      names.writeFieldName(json, labels.name(i));
      json.writeString(labels.value(i));
    }
    json.writeEndObject();
  }
}
