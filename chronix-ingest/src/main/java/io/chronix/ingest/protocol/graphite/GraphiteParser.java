package io.chronix.ingest.protocol.graphite;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.ingest.protocol.LineParser;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.WireNumbers;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Graphite's plaintext protocol: {@code <path> <value> [<timestamp>]}, fields separated by spaces
 * or tabs.
 *
 * <ul>
 *   <li>The path is the series name. A tagged path ({@code disk.used;host=a;dc=eu}) names the
 *       series by its part before the first {@code ;}, and each {@code tag=value} becomes an
 *       attribute ({@link Attributes}). As in Graphite, tag names must not contain {@code !} or
 *       {@code ^}, values must not be empty nor start with {@code ~}.
 *   <li>The value is a decimal number; NaN and infinities, which carbon silently discards, are
 *       rejected so the sender learns about them.
 *   <li>The timestamp is in epoch seconds, with a fraction kept to the nanosecond. A missing
 *       timestamp or {@code -1} means the server's clock, as carbon does.
 * </ul>
 */
public final class GraphiteParser implements LineParser {

  private static final BigDecimal NOW = BigDecimal.ONE.negate();
  private static final int MAX_CACHED_SERIES = 100_000;

  private final LongSupplier clockNanos;
  /** Parsed paths; senders repeat the same series every interval. */
  private final Map<String, SeriesKey> keys = new ConcurrentHashMap<>();

  /** @param clockNanos epoch nanoseconds of lines without a timestamp */
  public GraphiteParser(LongSupplier clockNanos) {
    this.clockNanos = clockNanos;
  }

  /** For one request body: every line without a timestamp gets this one. */
  public GraphiteParser(long nowNanos) {
    this(() -> nowNanos);
  }

  @Override
  public void parseLine(String line, int lineNumber, PointSink sink) throws IOException {
    String[] fields = new String[3];
    int count = 0;
    int position = 0;
    int length = line.length();
    while (true) {
      while (position < length && isSeparator(line.charAt(position))) {
        position++;
      }
      if (position == length) {
        break;
      }
      int start = position;
      while (position < length && !isSeparator(line.charAt(position))) {
        position++;
      }
      if (count == fields.length) {
        throw new IllegalArgumentException("more than three fields (expected '<path> <value> [<timestamp>]')");
      }
      fields[count++] = line.substring(start, position);
    }
    if (count < 2) {
      throw new IllegalArgumentException(count == 0 ? "empty line" : "missing value (expected '<path> <value> [<timestamp>]')");
    }
    SeriesKey key = key(fields[0]);
    double value = WireNumbers.value(fields[1]);
    long timestamp = count == 3 ? timestamp(fields[2]) : clockNanos.getAsLong();
    sink.accept(key, timestamp, value);
  }

  private static boolean isSeparator(char c) {
    return c == ' ' || c == '\t' || c == '\r';
  }

  private long timestamp(String raw) {
    BigDecimal seconds = WireNumbers.decimal(raw, "timestamp");
    if (seconds.compareTo(NOW) == 0) {
      return clockNanos.getAsLong();
    }
    return WireNumbers.nanos(seconds, 9, "timestamp");
  }

  private SeriesKey key(String path) {
    SeriesKey key = keys.get(path);
    if (key == null) {
      key = parsePath(path);
      if (keys.size() >= MAX_CACHED_SERIES) {
        keys.clear();
      }
      keys.put(path, key);
    }
    return key;
  }

  private static SeriesKey parsePath(String path) {
    int semicolon = path.indexOf(';');
    if (semicolon < 0) {
      return SeriesKey.metric(path, Attributes.withOrigin(Map.of(), SeriesOrigin.GRAPHITE));
    }
    if (semicolon == 0) {
      throw new IllegalArgumentException("tagged series without a name");
    }
    Map<String, String> attributes = new TreeMap<>();
    int start = semicolon + 1;
    while (true) {
      int end = path.indexOf(';', start);
      String tag = path.substring(start, end < 0 ? path.length() : end);
      int equals = tag.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException(tag.isEmpty() ? "empty tag (two ';' in a row or a trailing ';')"
            : "tag '" + tag + "' is not name=value");
      }
      String tagName = tag.substring(0, equals);
      String tagValue = tag.substring(equals + 1);
      if (tagName.isEmpty()) {
        throw new IllegalArgumentException("tag '" + tag + "' has an empty name");
      }
      if (tagName.indexOf('!') >= 0 || tagName.indexOf('^') >= 0) {
        throw new IllegalArgumentException("tag name '" + tagName + "' contains '!' or '^', which Graphite does not allow");
      }
      if (tagValue.startsWith("~")) {
        throw new IllegalArgumentException("tag '" + tagName + "' has a value starting with '~', which Graphite does not allow");
      }
      String attribute = Attributes.key(tagName);
      if (attributes.put(attribute, Attributes.value(attribute, tagValue)) != null) {
        throw new IllegalArgumentException("tag '" + tagName + "' appears twice");
      }
      if (end < 0) {
        break;
      }
      start = end + 1;
    }
    return SeriesKey.metric(path.substring(0, semicolon), Attributes.withOrigin(attributes, SeriesOrigin.GRAPHITE));
  }
}
