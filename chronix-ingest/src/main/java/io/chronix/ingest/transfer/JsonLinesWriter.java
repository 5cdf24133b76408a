package io.chronix.ingest.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes series in VictoriaMetrics' JSON-lines format, the counterpart of {@link JsonLinesReader}:
 * labels, then the values (doubles as Java's shortest exact decimal, so that reading them back
 * gives the same bits; integer series as integers; NaN and infinities as the bare words NaN,
 * Infinity and -Infinity), then the timestamps in epoch milliseconds.
 */
public final class JsonLinesWriter implements AutoCloseable {

  private static final JsonFactory JSON = JsonFactory.builder()
      .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS).build();

  private final JsonGenerator out;

  public JsonLinesWriter(OutputStream stream) throws IOException {
    out = JSON.createGenerator(stream);
    out.setRootValueSeparator(null);
    out.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
  }

  /** One series; timestamps in nanoseconds (written as milliseconds, rounded down). */
  public void write(Labels labels, Points points) throws IOException {
    out.writeStartObject();
    out.writeObjectFieldStart("metric");
    for (int i = 0; i < labels.size(); i++) {
      out.writeStringField(labels.name(i), labels.value(i));
    }
    out.writeEndObject();
    out.writeArrayFieldStart("values");
    boolean integers = points.type() == ValueType.LONG;
    for (int i = 0; i < points.size(); i++) {
      if (integers) {
        out.writeNumber(points.longValue(i));
      } else {
        out.writeNumber(points.value(i));
      }
    }
    out.writeEndArray();
    out.writeArrayFieldStart("timestamps");
    for (int i = 0; i < points.size(); i++) {
      out.writeNumber(Math.floorDiv(points.timestamp(i), 1_000_000L));
    }
    out.writeEndArray();
    out.writeEndObject();
    out.writeRaw('\n');
  }

  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
