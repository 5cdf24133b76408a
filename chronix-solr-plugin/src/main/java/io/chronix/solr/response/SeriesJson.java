package io.chronix.solr.response;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.io.NumberOutput;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code dataAsJson} form of a series, as Chronix clients know it:
 * {@code {"timestamps":[...],"values":[...]}}. Timestamps are epoch values in the requested
 * precision (rounded down); values as the series' type has them: doubles written so that parsing
 * them gives the same double, whole ones without a fraction ({@code 42}, not {@code 42.0}; NaN and
 * infinities as the strings "NaN", "Infinity", "-Infinity"),
 * longs as exact integers, booleans as true/false, strings as JSON strings, arrays as JSON arrays
 * of such doubles.
 *
 * <p>Written byte by byte rather than through a JSON generator: a raw fetch spent most of its
 * server time here (per-value generator bookkeeping and a String per double).
 */
public final class SeriesJson {

  private static final byte[] TIMESTAMPS = "{\"timestamps\":[".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] VALUES = "],\"values\":[".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "]}".getBytes(StandardCharsets.US_ASCII);
  /** Decimal scales tried for a short exact form of a double; 10^4 covers the usual gauges. */
  private static final double[] SCALES = {1, 10, 100, 1_000, 10_000};
  private static final long[] LONG_SCALES = {1, 10, 100, 1_000, 10_000};
  /** Below 2^53 every integer is a double; beyond, rounding could fake a short form. */
  private static final double EXACT_INTEGERS = 9_007_199_254_740_992.0;

  /** Timestamps are written as a shared head of digits and a tail of {@link #TAIL_DIGITS}. */
  private static final long TAIL = 1_000_000L;
  private static final int TAIL_DIGITS = 6;
  /** "000" to "999", three bytes each. */
  private static final byte[] TRIPLETS = new byte[3_000];
  /** "00" to "99", two bytes each. */
  private static final byte[] PAIRS = new byte[200];

  static {
    for (int i = 0; i < 100; i++) {
      PAIRS[2 * i] = (byte) ('0' + i / 10);
      PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
    for (int i = 0; i < 1_000; i++) {
      TRIPLETS[3 * i] = (byte) ('0' + i / 100);
      TRIPLETS[3 * i + 1] = (byte) ('0' + i / 10 % 10);
      TRIPLETS[3 * i + 2] = (byte) ('0' + i % 10);
    }
  }

  private byte[] out;
  private int length;
  // the digits of the last timestamp's head: neighbouring timestamps share all but the last few
  /** The head * 10^6: a timestamp in [headStart, headStart + 10^6) shares the head's digits. */
  private long headStart;
  private final byte[] headDigits = new byte[20];
  private int headLength;
  // where the last double's text is in out: gauges repeat their values
  private long lastBits;
  private int lastStart = -1;
  private int lastLength;

  private SeriesJson(int capacity) {
    out = new byte[capacity];
  }

  public static String write(Points points, Precision precision) {
    return encode(points, precision).toString();
  }

  /** The same as UTF-8 bytes, for a raw field ({@link RawJson}). */
  static RawJson encode(Points points, Precision precision) {
    SeriesJson json = new SeriesJson(points.size() * 24 + 32);
    json.append(TIMESTAMPS);
    for (int i = 0; i < points.size(); i++) {
      if (i > 0) {
        json.put((byte) ',');
      }
      // the quick JIT compiler divides in a call into the runtime (3 % of a raw fetch), which was no
      // slower than the distance to the last timestamp divided as a double (docs/benchmarks.md)
      json.writeTimestamp(precision == Precision.MILLISECONDS ? Math.floorDiv(points.timestamp(i), 1_000_000L)
          : precision.fromNanos(points.timestamp(i)));
    }
    json.append(VALUES);
    for (int i = 0; i < points.size(); i++) {
      if (i > 0) {
        json.put((byte) ',');
      }
      switch (points.type()) {
        case LONG:
          json.writeLong(points.longValue(i));
          break;
        case BOOLEAN:
          json.writeAscii(points.booleanValue(i) ? "true" : "false");
          break;
        case STRING:
          json.writeString(points.text(i));
          break;
        case ARRAY:
          json.writeArray(points.array(i));
          break;
        default:
          json.writeDouble(points.value(i));
      }
    }
    json.append(END);
    return new RawJson(json.out, json.length);
  }

  /**
   * A timestamp as its head (all but the last six digits, written once per run of timestamps
   * that share it) and its six-digit tail: integer formatting was a third of a raw fetch.
   */
  private void writeTimestamp(long value) {
    if (value < TAIL) {
      writeLong(value);
      return;
    }
    int tail;
    if (headLength > 0 && value >= headStart && value - headStart < TAIL) {
      tail = (int) (value - headStart); // the head of the timestamp before: no long division (slow in C1 code)
    } else {
      long high = value / TAIL;
      tail = (int) (value - high * TAIL);
      headStart = high * TAIL;
      headLength = NumberOutput.outputLong(high, headDigits, 0);
    }
    ensure(headLength + TAIL_DIGITS);
    byte[] bytes = out;
    int at = length;
    for (int i = 0; i < headLength; i++) {
      bytes[at++] = headDigits[i];
    }
    // element by element: System.arraycopy's call costs more than three bytes; tail / 1000 as a
    // multiplication, exact below a million
    int thousandsOf = (int) ((tail * 4_294_968L) >>> 32);
    int thousands = 3 * thousandsOf;
    int units = 3 * (tail - 1_000 * thousandsOf);
    bytes[at] = TRIPLETS[thousands];
    bytes[at + 1] = TRIPLETS[thousands + 1];
    bytes[at + 2] = TRIPLETS[thousands + 2];
    bytes[at + 3] = TRIPLETS[units];
    bytes[at + 4] = TRIPLETS[units + 1];
    bytes[at + 5] = TRIPLETS[units + 2];
    length = at + TAIL_DIGITS;
  }

  private void writeArray(double[] array) {
    writeAscii("[");
    for (int k = 0; k < array.length; k++) {
      if (k > 0) {
        comma();
      }
      writeDouble(array[k]);
    }
    writeAscii("]");
  }

  /** A double; the same value as the one before is copied from that one's text. */
  private void writeDouble(double value) {
    long bits = Double.doubleToRawLongBits(value);
    if (lastStart >= 0 && bits == lastBits) {
      ensure(lastLength);
      System.arraycopy(out, lastStart, out, length, lastLength);
      length += lastLength;
      return;
    }
    int start = length;
    writeNewDouble(value);
    lastBits = bits;
    lastStart = start;
    lastLength = length - start;
  }

  private void writeNewDouble(double value) {
    if (Double.isNaN(value)) {
      writeAscii("\"NaN\"");
    } else if (Double.isInfinite(value)) {
      writeAscii(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else if (value == 0) {
      writeAscii(Double.doubleToRawLongBits(value) == 0 ? "0" : "-0.0"); // "-0" would read back as 0
    } else if (!writeShortDecimal(value)) {
      writeAscii(NumberOutput.toString(value, true)); // shortest form that reads back (Schubfach)
    }
  }

  /**
   * Writes the value as {@code digits.fraction} with at most four fraction digits, or as an integer
   * without a fraction, if that text reads back as the same double: the scaled value is an integer
   * that is exactly a double, and dividing it back (a correctly rounded division, as parsing the
   * text is) gives the value. An integer without ".0" is what VictoriaMetrics and Prometheus' own
   * JSON print; a client reads it as a plain integer, twice as fast as a number with a fraction.
   */
  private boolean writeShortDecimal(double value) {
    for (int k = 0; k < SCALES.length; k++) {
      double scaled = value * SCALES[k];
      if (Math.abs(scaled) < EXACT_INTEGERS && scaled == Math.rint(scaled) && scaled / SCALES[k] == value) {
        long units = (long) scaled;
        if (units < 0) {
          put((byte) '-');
          units = -units;
        }
        writeLong(units / LONG_SCALES[k]);
        if (k > 0) {
          put((byte) '.');
          long fraction = units % LONG_SCALES[k];
          for (long digit = LONG_SCALES[k] / 10; digit > 0; digit /= 10) {
            put((byte) ('0' + fraction / digit % 10));
          }
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Two digits per table lookup, in int arithmetic where the value fits: a digit-by-digit loop of
   * long divisions took a third of a raw fetch's server time, and Jackson's writer, which the JIT's
   * quick compiler does not inline, a sixth.
   */
  private void writeLong(long value) {
    ensure(20);
    if (value == Long.MIN_VALUE) {
      length = NumberOutput.outputLong(value, out, length);
      return;
    }
    byte[] bytes = out;
    int at = length;
    if (value < 0) {
      bytes[at++] = '-';
      value = -value;
    }
    int end = at + digits(value);
    int p = end;
    while (value > Integer.MAX_VALUE) {
      long quotient = value / 100;
      int pair = 2 * (int) (value - quotient * 100);
      bytes[--p] = PAIRS[pair + 1];
      bytes[--p] = PAIRS[pair];
      value = quotient;
    }
    int small = (int) value;
    while (small >= 100) {
      int quotient = small / 100;
      int pair = 2 * (small - quotient * 100);
      bytes[--p] = PAIRS[pair + 1];
      bytes[--p] = PAIRS[pair];
      small = quotient;
    }
    if (small >= 10) {
      bytes[--p] = PAIRS[2 * small + 1];
      bytes[--p] = PAIRS[2 * small];
    } else {
      bytes[--p] = (byte) ('0' + small);
    }
    length = end;
  }

  /** Decimal digits of a value that is not negative. */
  private static int digits(long value) {
    int digits = 1;
    long bound = 10;
    while (digits < 19 && value >= bound) {
      digits++;
      bound *= 10;
    }
    return digits;
  }

  private void writeString(String text) {
    put((byte) '"');
    append(JsonStringEncoder.getInstance().quoteAsUTF8(text));
    put((byte) '"');
  }

  private void writeAscii(String text) {
    ensure(text.length());
    for (int i = 0; i < text.length(); i++) {
      out[length++] = (byte) text.charAt(i);
    }
  }

  private void comma() {
    put((byte) ',');
  }

  private void put(byte b) {
    ensure(1);
    out[length++] = b;
  }

  private void append(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, out, length, bytes.length);
    length += bytes.length;
  }

  private void ensure(int more) {
    if (length + more > out.length) {
      out = Arrays.copyOf(out, Math.max(out.length * 2, length + more));
    }
  }
}
