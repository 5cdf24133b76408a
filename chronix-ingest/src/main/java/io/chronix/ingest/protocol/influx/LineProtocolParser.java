package io.chronix.ingest.protocol.influx;

import io.chronix.core.series.Precision;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * InfluxDB line protocol: {@code measurement[,tag=value...] field=value[,field=value...] [timestamp]}.
 *
 * <p>Each field is a series: named after the measurement when the field is called {@code value},
 * else {@code <measurement>_<field>} (as Telegraf names Prometheus metrics); the tags become
 * attributes ({@link Attributes}). A line is taken whole or not at all: a line with any error
 * delivers none of its fields, while the valid lines of the same body are kept (InfluxDB's
 * partial write). The field's type picks the series type: floats make {@code metric} (double)
 * series, integers ({@code 1i}) and unsigned integers ({@code 1u}, up to 2^63-1) exact
 * {@code long} series, {@code t}/{@code false} and friends {@code boolean} series, quoted strings
 * {@code string} series.
 */
public final class LineProtocolParser {

  private static final int MAX_CACHED_SERIES = 200_000;
  /** Characters of cached series sections: long tags must not make the cache the biggest thing in the heap. */
  private static final long MAX_CACHED_CHARS = 8_000_000;

  private final Precision precision;
  private final long defaultTimestampNanos;
  /**
   * Parsed measurement+tag sections, shared by every request of a server: agents repeat the same
   * series all day, and parsing a tag set costs more than the rest of its line.
   */
  private final SeriesCache cache;
  private String lastSection;
  private SeriesPrefix lastPrefix;

  /**
   * @param defaultTimestampNanos timestamp of lines without one (the server's clock, as InfluxDB)
   */
  public LineProtocolParser(Precision precision, long defaultTimestampNanos) {
    this(precision, defaultTimestampNanos, new SeriesCache());
  }

  /** @param seriesCache shared by the parsers of one server, on any number of threads */
  public LineProtocolParser(Precision precision, long defaultTimestampNanos, SeriesCache seriesCache) {
    this.precision = precision;
    this.defaultTimestampNanos = defaultTimestampNanos;
    this.cache = seriesCache;
  }

  /** Parsed series sections that parsers on several threads may share. */
  /** Parsed series sections shared across requests, bounded in entries and characters (then emptied). */
  public static final class SeriesCache {
    private final Map<String, SeriesPrefix> prefixes = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong chars = new java.util.concurrent.atomic.AtomicLong();

    SeriesPrefix get(String section) {
      return prefixes.get(section);
    }

    void put(String section, SeriesPrefix prefix) {
      // the parsed prefix holds about as much again as the section
      if (prefixes.size() >= MAX_CACHED_SERIES || chars.addAndGet(2L * section.length()) > MAX_CACHED_CHARS) {
        prefixes.clear();
        chars.set(2L * section.length());
      }
      prefixes.put(section, prefix);
    }
  }

  public ParseResult parse(String body, PointSink sink) throws IOException {
    List<LineError> errors = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    long points = 0;
    int lineNumber = 0;
    int position = 0;
    int length = body.length();
    while (position <= length) {
      int end = body.indexOf('\n', position);
      if (end < 0) {
        end = length;
      }
      lineNumber++;
      int lineStart = position;
      int lineEnd = end;
      position = end + 1;
      // trim in place: copying every line would cost more than parsing it
      while (lineStart < lineEnd && Character.isWhitespace(body.charAt(lineStart))) {
        lineStart++;
      }
      while (lineEnd > lineStart && Character.isWhitespace(body.charAt(lineEnd - 1))) {
        lineEnd--;
      }
      if (lineStart == lineEnd || body.charAt(lineStart) == '#') {
        continue;
      }
      fields.clear();
      long timestamp;
      SeriesPrefix prefix;
      try {
        Cursor cursor = new Cursor(body, lineStart, lineEnd);
        prefix = prefix(cursor);
        parseFields(cursor, fields);
        timestamp = parseTimestamp(cursor);
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(lineNumber, e.getMessage() + " in '" + abbreviate(body.substring(lineStart, lineEnd)) + "'"));
        continue;
      }
      for (Field field : fields) {
        SeriesKey key = prefix.key(field.name, field.type);
        switch (field.type) {
          case LONG:
            sink.acceptLong(key, timestamp, field.longValue);
            break;
          case BOOLEAN:
            sink.acceptBoolean(key, timestamp, field.value != 0);
            break;
          case STRING:
            sink.acceptText(key, timestamp, field.text);
            break;
          default:
            sink.accept(key, timestamp, field.value);
        }
        points++;
      }
    }
    return new ParseResult(points, errors);
  }

  private SeriesPrefix prefix(Cursor cursor) {
    int start = cursor.position;
    cursor.skipKey(); // measurement and tags end at the first unescaped space
    int sectionLength = cursor.position - start;
    // agents send runs of lines of one series: most lines repeat the previous line's section
    if (lastSection != null && lastSection.length() == sectionLength
        && cursor.text.regionMatches(start, lastSection, 0, sectionLength)) {
      return lastPrefix;
    }
    String section = cursor.text.substring(start, cursor.position);
    SeriesPrefix prefix = cache.get(section);
    if (prefix == null) {
      prefix = SeriesPrefix.parse(section);
      cache.put(section, prefix);
    }
    lastSection = section;
    lastPrefix = prefix;
    return prefix;
  }

  private static void parseFields(Cursor cursor, List<Field> fields) {
    cursor.skipSpaces();
    if (cursor.atEnd()) {
      throw new IllegalArgumentException("missing fields");
    }
    while (true) {
      String key = cursor.readUntil('=', " ,", true);
      if (key.isEmpty()) {
        throw new IllegalArgumentException("empty field key");
      }
      if (!cursor.consume('=')) {
        throw new IllegalArgumentException("field '" + key + "' has no '=value'");
      }
      fields.add(parseValue(key, cursor));
      if (!cursor.consume(',')) {
        return;
      }
    }
  }

  private static Field parseValue(String key, Cursor cursor) {
    if (cursor.peek() == '"') {
      return new Field(key, ValueType.STRING, 0, 0, cursor.readQuoted(key));
    }
    String raw = cursor.readRaw(" ,");
    if (raw.isEmpty()) {
      throw new IllegalArgumentException("field '" + key + "' has no value");
    }
    char last = raw.charAt(raw.length() - 1);
    if (last == 'i' || last == 'u') {
      String digits = raw.substring(0, raw.length() - 1);
      long value;
      try {
        value = last == 'i' ? Long.parseLong(digits) : Long.parseUnsignedLong(digits);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("field '" + key + "': '" + raw + "' is not a valid "
            + (last == 'i' ? "integer" : "unsigned integer"));
      }
      if (last == 'u' && value < 0) {
        throw new IllegalArgumentException("field '" + key + "': unsigned integer " + raw
            + " exceeds the largest long series value (2^63-1)");
      }
      return new Field(key, ValueType.LONG, 0, value, null);
    }
    if (isBoolean(raw)) {
      return new Field(key, ValueType.BOOLEAN, raw.charAt(0) == 't' || raw.charAt(0) == 'T' ? 1 : 0, 0, null);
    }
    if (!isFloat(raw)) {
      throw new IllegalArgumentException("field '" + key + "': '" + raw + "' is not a number");
    }
    return new Field(key, ValueType.DOUBLE, Double.parseDouble(raw), 0, null);
  }

  private static boolean isBoolean(String raw) {
    switch (raw) {
      case "t": case "T": case "true": case "True": case "TRUE":
      case "f": case "F": case "false": case "False": case "FALSE":
        return true;
      default:
        return false;
    }
  }

  /** The float syntax InfluxDB accepts: no NaN, no infinities, no hex, no type suffixes. */
  private static boolean isFloat(String raw) {
    int i = 0;
    int n = raw.length();
    if (i < n && (raw.charAt(i) == '-' || raw.charAt(i) == '+')) {
      i++;
    }
    int digits = 0;
    while (i < n && Character.isDigit(raw.charAt(i))) {
      i++;
      digits++;
    }
    if (i < n && raw.charAt(i) == '.') {
      i++;
      while (i < n && Character.isDigit(raw.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (i < n && (raw.charAt(i) == 'e' || raw.charAt(i) == 'E')) {
      i++;
      if (i < n && (raw.charAt(i) == '-' || raw.charAt(i) == '+')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < n && Character.isDigit(raw.charAt(i))) {
        i++;
        exponentDigits++;
      }
      if (exponentDigits == 0) {
        return false;
      }
    }
    return i == n;
  }

  private long parseTimestamp(Cursor cursor) {
    cursor.skipSpaces();
    if (cursor.atEnd()) {
      return defaultTimestampNanos;
    }
    String raw = cursor.readRaw(" ");
    cursor.skipSpaces();
    if (!cursor.atEnd()) {
      throw new IllegalArgumentException("unexpected text after the timestamp");
    }
    long value;
    try {
      value = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("timestamp '" + raw + "' is not an integer");
    }
    try {
      return precision.toNanos(value);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("timestamp " + raw + " in " + precision.name().toLowerCase()
          + " lies outside the years 1677-2262 (wrong precision?)");
    }
  }

  private static String abbreviate(String line) {
    return line.length() <= 120 ? line : line.substring(0, 117) + "...";
  }

  /** One field of a line: its series' value type and the value in the matching slot. */
  private record Field(String name, ValueType type, double value, long longValue, String text) {}

  /** Measurement and attributes of a line, with the series key of each field name it has seen. */
  private static final class SeriesPrefix {
    private final String measurement;
    private final Map<String, String> attributes;
    private final Map<String, SeriesKey> keys = new ConcurrentHashMap<>(4);
    /** Keys of fields of other value types than double, which are rarer. */
    private final Map<String, SeriesKey> typedKeys = new ConcurrentHashMap<>(4);

    private SeriesPrefix(String measurement, Map<String, String> attributes) {
      this.measurement = measurement;
      this.attributes = attributes;
    }

    static SeriesPrefix parse(String section) {
      Cursor cursor = new Cursor(section);
      String measurement = cursor.readUntil(',', " ", false);
      if (measurement.isEmpty()) {
        throw new IllegalArgumentException("missing measurement");
      }
      Map<String, String> attributes = new TreeMap<>();
      while (cursor.consume(',')) {
        String tagKey = cursor.readUntil('=', ", ", true);
        if (!cursor.consume('=')) {
          throw new IllegalArgumentException("tag '" + tagKey + "' has no '=value'");
        }
        String tagValue = cursor.readUntil(',', " =", true);
        String key = Attributes.key(tagKey);
        if (attributes.put(key, Attributes.value(key, tagValue)) != null) {
          throw new IllegalArgumentException("tag '" + key + "' appears twice");
        }
      }
      if (!cursor.atEnd()) {
        throw new IllegalArgumentException("unexpected '" + cursor.peek() + "' in the tag set");
      }
      return new SeriesPrefix(measurement, attributes);
    }

    SeriesKey key(String field, ValueType type) {
      if (type != ValueType.DOUBLE) {
        return typedKeys.computeIfAbsent(type.typeName() + '\u0000' + field,
            k -> new SeriesKey(name(field), type.typeName(), origin(field)));
      }
      SeriesKey key = keys.get(field);
      if (key == null) {
        key = SeriesKey.metric(name(field), origin(field));
        keys.put(field, key);
      }
      return key;
    }

    /** The tags plus what the series was written as: measurement and field. */
    private Map<String, String> origin(String field) {
      return Attributes.withOrigin(attributes, SeriesOrigin.INFLUX, SeriesOrigin.INFLUX_MEASUREMENT, measurement,
          SeriesOrigin.INFLUX_FIELD, field);
    }

    private String name(String field) {
      return field.equals("value") ? measurement : measurement + "_" + field;
    }
  }

  /** Reads one line; a backslash escapes the character after it where that one is special. */
  private static final class Cursor {
    private final String text;
    private int position;
    private final int start;
    private final int end;

    Cursor(String text) {
      this(text, 0, text.length());
    }

    Cursor(String text, int start, int end) {
      this.text = text;
      this.position = start;
      this.start = start;
      this.end = end;
    }

    boolean atEnd() {
      return position >= end;
    }

    char peek() {
      return atEnd() ? '\0' : text.charAt(position);
    }

    boolean consume(char c) {
      if (!atEnd() && text.charAt(position) == c) {
        position++;
        return true;
      }
      return false;
    }

    void skipSpaces() {
      while (!atEnd() && text.charAt(position) == ' ') {
        position++;
      }
    }

    /** Moves past measurement and tag set: to the first space not escaped. */
    void skipKey() {
      while (!atEnd()) {
        char c = text.charAt(position);
        if (c == '\\' && position + 1 < end) {
          position += 2;
        } else if (c == ' ') {
          return;
        } else {
          position++;
        }
      }
    }

    /**
     * Reads up to {@code stop} or any of {@code alsoStop}, resolving escapes of those characters
     * and of the backslash itself; a backslash before anything else is kept as it is.
     */
    String readUntil(char stop, String alsoStop, boolean forbidEmpty) {
      StringBuilder out = null;
      int start = position;
      while (!atEnd()) {
        char c = text.charAt(position);
        if (c == '\\' && position + 1 < end) {
          char next = text.charAt(position + 1);
          if (next == stop || alsoStop.indexOf(next) >= 0 || next == '\\' || next == '=' || next == ',' || next == ' ') {
            if (out == null) {
              out = new StringBuilder(text.substring(start, position));
            }
            out.append(next);
            position += 2;
            continue;
          }
        }
        if (c == stop || alsoStop.indexOf(c) >= 0) {
          break;
        }
        if (out != null) {
          out.append(c);
        }
        position++;
      }
      String result = out == null ? text.substring(start, position) : out.toString();
      if (forbidEmpty && result.isEmpty()) {
        throw new IllegalArgumentException("empty key or value at column " + (position - this.start + 1));
      }
      return result;
    }

    /**
     * A double-quoted string field value; inside it a backslash escapes {@code "} and {@code \\},
     * and stays literal before anything else.
     */
    String readQuoted(String field) {
      position++; // the opening quote
      StringBuilder out = new StringBuilder();
      while (position < end) {
        char c = text.charAt(position);
        if (c == '\\' && position + 1 < end && (text.charAt(position + 1) == '"' || text.charAt(position + 1) == '\\')) {
          out.append(text.charAt(position + 1));
          position += 2;
        } else if (c == '"') {
          position++;
          return out.toString();
        } else {
          out.append(c);
          position++;
        }
      }
      throw new IllegalArgumentException("field '" + field + "': string value has no closing quote");
    }

    String readRaw(String stops) {
      int start = position;
      while (!atEnd() && stops.indexOf(text.charAt(position)) < 0) {
        position++;
      }
      return text.substring(start, position);
    }
  }
}
