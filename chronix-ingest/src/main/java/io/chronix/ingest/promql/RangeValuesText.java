package io.chronix.ingest.promql;

import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.model.GoFloats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A range result's {@code values} member as Prometheus prints it, {@code [[1717200000,"41.25"],...]},
 * built in a buffer kept for all series of an answer and handed to Jackson as one raw value. Four
 * generator calls and a String for each sample (the quick compiler inlines neither Jackson's
 * writer nor the text's making) were over half of a {@code sum by} over 100 series' answer.
 * Timestamps are float seconds and values Go's shortest text ({@link GoFloats}); a value the same as
 * the one before (a gauge that holds, a sample looked back at) is copied from that one's text.
 * The text is built as UTF-8 bytes ({@link RawUtf8Value}): as a char array, Jackson's encoding of it
 * a char at a time was a tenth of that answer's CPU.
 */
final class RangeValuesText {

  /** A sample's room apart from its value's text: brackets, comma, quotes, a timestamp's text. */
  private static final int SAMPLE_CHARS = 8 + GoFloats.SHORT_CHARS;

  private byte[] text = new byte[4096];
  private int length;

  void write(JsonGenerator json, long[] timestamps, double[] values, int size) throws IOException {
    length = 0;
    ensure(2);
    text[length++] = '[';
    int lastStart = -1;
    int lastLength = 0;
    long lastBits = 0;
    for (int i = 0; i < size; i++) {
      ensure(SAMPLE_CHARS + GoFloats.SHORT_CHARS);
      if (i > 0) {
        text[length++] = ',';
      }
      text[length++] = '[';
      writeSeconds(timestamps[i]);
      text[length++] = ',';
      text[length++] = '"';
      long bits = Double.doubleToRawLongBits(values[i]);
      if (lastStart >= 0 && bits == lastBits) {
        System.arraycopy(text, lastStart, text, length, lastLength);
        length += lastLength;
      } else {
        lastStart = length;
        writeValue(values[i]);
        lastLength = length - lastStart;
        lastBits = bits;
      }
      ensure(3);
      text[length++] = '"';
      text[length++] = ']';
    }
    ensure(1);
    text[length++] = ']';
    json.writeRawValue(new RawUtf8Value(text, length));
  }

  /** Float seconds: the same text as {@link ApiWriter#seconds}, short ones written here. */
  private void writeSeconds(long millis) {
    int end = GoFloats.writeShort(millis / 1000.0, text, length);
    if (end >= 0) {
      length = end;
    } else {
      put(ApiWriter.seconds(millis));
    }
  }

  private void writeValue(double value) {
    int end = GoFloats.writeShort(value, text, length);
    if (end >= 0) {
      length = end;
    } else {
      put(GoFloats.format(value));
    }
  }

  private void put(String written) {
    byte[] bytes = written.getBytes(StandardCharsets.UTF_8);
    ensure(bytes.length + 3);
    System.arraycopy(bytes, 0, text, length, bytes.length);
    length += bytes.length;
  }

  private void ensure(int room) {
    if (length + room > text.length) {
      text = Arrays.copyOf(text, Math.max(text.length * 2, length + room));
    }
  }
}
