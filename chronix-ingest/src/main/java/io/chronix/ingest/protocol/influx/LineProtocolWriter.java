package io.chronix.ingest.protocol.influx;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import java.util.Map;

/**
 * Writes points as line protocol that {@link LineProtocolParser} reads back to the same series
 * key and the same bits: the key's name becomes the measurement and the value the field
 * {@code value}.
 */
public final class LineProtocolWriter {

  private LineProtocolWriter() {}

  /** Measurement and tag set of the key, escaped, without the trailing space. */
  public static String seriesPrefix(SeriesKey key) {
    StringBuilder out = new StringBuilder();
    escape(key.name(), false, out);
    for (Map.Entry<String, String> attribute : key.attributes().entrySet()) {
      if (SeriesOrigin.isOrigin(attribute.getKey())) {
        continue; // the parser adds what the line was written as
      }
      out.append(',');
      escape(attribute.getKey(), true, out);
      out.append('=');
      escape(attribute.getValue(), true, out);
    }
    return out.toString();
  }

  /** Appends {@code <prefix> value=<value> <timestampNanos>\n}. */
  public static void appendPoint(String prefix, long timestampNanos, double value, StringBuilder out) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("line protocol cannot carry " + value);
    }
    out.append(prefix).append(" value=").append(value).append(' ').append(timestampNanos).append('\n');
  }

  private static void escape(String text, boolean equalsToo, StringBuilder out) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == ' ' || c == '\\' || (equalsToo && c == '=')) {
        out.append('\\');
      }
      out.append(c);
    }
  }
}
