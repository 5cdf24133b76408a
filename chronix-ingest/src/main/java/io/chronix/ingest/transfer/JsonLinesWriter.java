package io.chronix.ingest.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.chronix.analysis.promql.model.GoFloats;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import io.chronix.core.series.ValueType;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes series in VictoriaMetrics' JSON-lines format, the counterpart of {@link JsonLinesReader}:
 * labels, then the values, then the timestamps in epoch milliseconds. Values are decimals that read
 * back as the same bits: as Prometheus prints them ({@link GoFloats}: whole numbers and short
 * decimals plainly, {@code 42817864} and {@code 0.25}), others as Java's exact decimal
 * ({@code 1.0E300}), -0 as {@code -0.0}; NaN and infinities as the bare words NaN, Infinity and
 * -Infinity; integer series as integers.
 *
 * <p>The arrays' numbers go to the stream as bytes, a buffer at a time, between the generator's
 * calls: Jackson's {@code writeNumber(double)} is Java's conversion of a double to a String, which
 * with its checks of each value took half of an export of P4 and the synthetic series, and text
 * handed to it raw is encoded again a char at a time (perf, docs/benchmarks.md).
 */
public final class JsonLinesWriter implements AutoCloseable {

  private static final JsonFactory JSON = JsonFactory.builder()
      .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS).build();
  /** Room a number takes at most: Java's form of a double is 24 characters at most, a long's 20. */
  private static final int NUMBER_BYTES = 32;

  private final OutputStream stream;
  private final JsonGenerator out;
  /** Numbers of an array with their commas (ASCII), not yet written to the stream. */
  private final byte[] text = new byte[8192];
  private int length;

  public JsonLinesWriter(OutputStream stream) throws IOException {
    this.stream = stream;
    out = JSON.createGenerator(stream);
    out.setRootValueSeparator(null);
    out.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    // the generator's bytes go to the stream before each run of numbers: a flush of the stream
    // each time would send an HTTP chunk each time
    out.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
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
      separate(i);
      if (integers) {
        length = NumberOutput.outputLong(points.longValue(i), text, length);
      } else {
        value(points.value(i));
      }
    }
    flushText();
    out.writeEndArray();
    out.writeArrayFieldStart("timestamps");
    for (int i = 0; i < points.size(); i++) {
      separate(i);
      length = NumberOutput.outputLong(Math.floorDiv(points.timestamp(i), 1_000_000L), text, length);
    }
    flushText();
    out.writeEndArray();
    out.writeEndObject();
    out.writeRaw('\n');
  }

  /** A comma before every number but the first, with room for the number after it. */
  private void separate(int index) throws IOException {
    if (length > text.length - NUMBER_BYTES - 1) {
      flushText();
    }
    if (index > 0) {
      text[length++] = (byte) ',';
    }
  }

  private void value(double value) {
    if (Double.isNaN(value)) {
      append("NaN");
    } else if (Double.isInfinite(value)) {
      append(value > 0 ? "Infinity" : "-Infinity");
    } else if (value == 0 && Double.doubleToRawLongBits(value) != 0) {
      append("-0.0"); // GoFloats' "-0" would read back as an integer, +0
    } else {
      int end = GoFloats.writeShort(value, text, length);
      if (end < 0) {
        append(Double.toString(value));
      } else {
        length = end;
      }
    }
  }

  /** An ASCII word: Java's form of a double, NaN and the infinities. */
  private void append(String word) {
    for (int i = 0; i < word.length(); i++) {
      text[length++] = (byte) word.charAt(i);
    }
  }

  /**
   * The numbers so far, after what the generator holds: its array context is left to its start
   * and end calls, which see no value inside.
   */
  private void flushText() throws IOException {
    out.flush();
    stream.write(text, 0, length);
    length = 0;
  }

  public void flush() throws IOException {
    out.flush();
    stream.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
    stream.flush();
  }
}
