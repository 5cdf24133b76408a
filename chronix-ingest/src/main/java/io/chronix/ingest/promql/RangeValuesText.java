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

  /** Slots of the timestamp texts kept (a power of two): a range answer's steps, up to this many. */
  private static final int SLOTS = 1024;

  private byte[] text = new byte[4096];
  private int length;
  /** Series written so far: the first one's timestamps are not kept, as most answers have one series. */
  private int series;
  /**
   * The texts of timestamps written, by a hash of their milliseconds: the series of an answer share
   * its steps' times, and making the text of each anew (a long's digits, which the quick compiler
   * divides out one by one) was a ninth of a {@code sum by} over 100 series' answer.
   */
  private long[] keptMillis;
  private byte[] keptLengths;
  private byte[] keptTexts;

  void write(JsonGenerator json, long[] timestamps, double[] values, int size) throws IOException {
    if (++series == 2) {
      keptMillis = new long[SLOTS];
      keptLengths = new byte[SLOTS];
      keptTexts = new byte[SLOTS * GoFloats.SHORT_CHARS];
    }
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
    int slot = -1;
    if (keptMillis != null) {
      slot = (int) ((millis * 0x9E3779B97F4A7C15L) >>> (64 - Integer.numberOfTrailingZeros(SLOTS)));
      int kept = keptLengths[slot];
      if (kept != 0 && keptMillis[slot] == millis) {
        System.arraycopy(keptTexts, slot * GoFloats.SHORT_CHARS, text, length, kept);
        length += kept;
        return;
      }
    }
    int end = GoFloats.writeShort(millis / 1000.0, text, length);
    if (end < 0) {
      put(ApiWriter.seconds(millis));
      return;
    }
    if (slot >= 0) {
      keptMillis[slot] = millis;
      keptLengths[slot] = (byte) (end - length);
      System.arraycopy(text, length, keptTexts, slot * GoFloats.SHORT_CHARS, end - length);
    }
    length = end;
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
