package io.chronix.solr.response;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code dataAsJson} form of a series, as Chronix clients know it:
 * {@code {"timestamps":[...],"values":[...]}}. Timestamps are epoch values in the requested
 * precision (rounded down); values as the series' type has them: doubles written so that parsing
 * them gives the same double (NaN and infinities as the strings "NaN", "Infinity", "-Infinity"),
 * longs as exact integers, booleans as true/false, strings as JSON strings.
 */
public final class SeriesJson {

  /**
   * Doubles through Jackson's Schubfach writer (shortest text that reads back as the same double)
   * rather than Double.toString, which allocated most of a raw fetch's garbage.
   */
  private static final JsonFactory JSON = JsonFactory.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  private SeriesJson() {}

  public static String write(Points points, Precision precision) {
    // UTF-8 bytes, then one String: a character writer copied every char through a compacting check
    ByteArrayBuilder out = new ByteArrayBuilder(points.size() * 24 + 32);
    try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      json.writeStartObject();
      json.writeArrayFieldStart("timestamps");
      for (int i = 0; i < points.size(); i++) {
        json.writeNumber(precision.fromNanos(points.timestamp(i)));
      }
      json.writeEndArray();
      json.writeArrayFieldStart("values");
      for (int i = 0; i < points.size(); i++) {
        switch (points.type()) {
          case LONG:
            json.writeNumber(points.longValue(i));
            break;
          case BOOLEAN:
            json.writeBoolean(points.booleanValue(i));
            break;
          case STRING:
            json.writeString(points.text(i));
            break;
          default:
            json.writeNumber(points.value(i));
        }
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory failed", e);
    }
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }
}
