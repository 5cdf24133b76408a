package io.chronix.ingest.protocol.influx;

import io.chronix.core.series.Precision;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.buffer.SeriesHandle;
import io.chronix.ingest.protocol.ByteNumbers;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 * {@code string} series. Numeric fields named {@code <field>[<index>]} are the elements of one
 * {@code array} series named after {@code <field>} (docs/ingest.md, "Array values").
 */
public final class LineProtocolParser {

  private static final int MAX_CACHED_SERIES = 200_000;
  /** Characters of cached series sections: long tags must not make the cache the biggest thing in the heap. */
  private static final long MAX_CACHED_CHARS = 8_000_000;
  /** Field names shared across requests, and the longest: a fleet's fields are a few hundred short names. */
  private static final int MAX_SHARED_FIELD_NAMES = 4096;
  private static final int MAX_SHARED_FIELD_CHARS = 256;

  private final Precision precision;
  private final long defaultTimestampNanos;
  /**
   * Parsed measurement+tag sections, shared by every request of a server: agents repeat the same
   * series all day, and parsing a tag set costs more than the rest of its line.
   */
  private final SeriesCache cache;
  /** The previous line's section (measurement and tags): agents send runs of lines of one series. */
  private Cached last;
  /** Pointed at each line's section for the cache lookup. */
  private final SeriesSection probe = new SeriesSection();
  private final LineCursor cursor = new LineCursor();
  private final Fields fields = new Fields();

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

  /** Parsed series sections shared across requests, bounded in entries and bytes (then emptied). */
  public static final class SeriesCache {
    private final Map<SeriesSection, Cached> prefixes = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong chars = new java.util.concurrent.atomic.AtomicLong();
    /**
     * One instance of each field name for every request: a prefix finds a field's series by
     * comparing names, and a request's own decoded name made that a comparison of characters for
     * every field of every line (each request decodes its names anew).
     */
    private final Map<String, String> fieldNames = new ConcurrentHashMap<>();

    /** The instance of this field name that earlier requests used, or this one from now on. */
    String fieldName(String decoded) {
      String known = fieldNames.get(decoded);
      if (known != null) {
        return known;
      }
      if (decoded.length() > MAX_SHARED_FIELD_CHARS) {
        return decoded;
      }
      if (fieldNames.size() >= MAX_SHARED_FIELD_NAMES) {
        fieldNames.clear(); // names only ever save a comparison: forgetting them costs nothing else
      }
      known = fieldNames.putIfAbsent(decoded, decoded);
      return known != null ? known : decoded;
    }

    Cached get(SeriesSection section) {
      return prefixes.get(section);
    }

    /**
     * Caches the prefix under a copy of the section unless another parser got there first, and
     * answers the one cached: all parsers then hand out the same key instances, which the buffers'
     * and the log's maps compare by identity first (two instances of one key cost a comparison of
     * every attribute a lookup).
     */
    Cached put(SeriesSection section, SeriesPrefix prefix) {
      // the parsed prefix holds about as much again as the section
      if (prefixes.size() >= MAX_CACHED_SERIES || chars.addAndGet(2L * section.length()) > MAX_CACHED_CHARS) {
        prefixes.clear();
        chars.set(2L * section.length());
      }
      SeriesSection kept = section.copy();
      Cached cached = new Cached(kept, prefix);
      Cached earlier = prefixes.putIfAbsent(kept, cached);
      return earlier == null ? cached : earlier;
    }
  }

  /** A cached prefix with its section's own bytes, which the next line is compared with. */
  record Cached(SeriesSection section, SeriesPrefix prefix) {}

  public ParseResult parse(String body, PointSink sink) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return parse(bytes, 0, bytes.length, sink);
  }

  /** Parses {@code [offset, offset + length)} of a request body in UTF-8. */
  public ParseResult parse(byte[] body, int offset, int length, PointSink sink) throws IOException {
    List<LineError> errors = new ArrayList<>();
    long points = 0;
    int lineNumber = 0;
    int position = offset;
    int limit = offset + length;
    while (position <= limit) {
      int end = lineEnd(body, position, limit);
      lineNumber++;
      int lineStart = position;
      int lineEnd = end;
      position = end + 1;
      // trim in place: copying every line would cost more than parsing it
      while (lineStart < lineEnd && isWhitespace(body[lineStart])) {
        lineStart++;
      }
      while (lineEnd > lineStart && isWhitespace(body[lineEnd - 1])) {
        lineEnd--;
      }
      if (lineStart == lineEnd || body[lineStart] == '#') {
        continue;
      }
      fields.clear();
      long timestamp;
      SeriesPrefix prefix;
      try {
        cursor.reset(body, lineStart, lineEnd);
        prefix = prefix();
        parseFields();
        if (fields.hasElements) {
          fields.collapseArrays();
        }
        timestamp = parseTimestamp();
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(lineNumber, e.getMessage() + " in '" + abbreviate(cursor.line()) + "'"));
        continue;
      }
      for (int f = 0; f < fields.count; f++) {
        SeriesHandle series = prefix.handle(fields.names[f], fields.types[f], f);
        switch (fields.types[f]) {
          case LONG:
            sink.acceptLong(series, timestamp, fields.longs[f]);
            break;
          case BOOLEAN:
            sink.acceptBoolean(series, timestamp, fields.values[f] != 0);
            break;
          case STRING:
            sink.acceptText(series, timestamp, fields.texts[f]);
            break;
          case ARRAY:
            sink.acceptArray(series, timestamp, fields.arrays[f]);
            break;
          default:
            sink.accept(series, timestamp, fields.values[f]);
        }
        points++;
      }
    }
    return new ParseResult(points, errors);
  }

  /** The index of the next '\n' from {@code from}, or {@code limit}. */
  static int lineEnd(byte[] body, int from, int limit) {
    return ByteScan.indexOf(body, from, limit, (byte) '\n');
  }

  /** Whitespace as {@link Character#isWhitespace} has it, for the ASCII range. */
  private static boolean isWhitespace(byte b) {
    return b == ' ' || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F);
  }

  private SeriesPrefix prefix() {
    int start = cursor.position;
    byte[] text = cursor.text;
    // the same bytes followed by a space end where the previous section ended: no scan, no lookup
    if (last != null) {
      int after = start + last.section().length();
      if (after < cursor.end && text[after] == ' ' && last.section().isAt(text, start, after)) {
        cursor.position = after;
        return last.prefix();
      }
    }
    cursor.skipKey(); // measurement and tags end at the first unescaped space
    SeriesSection section = probe.of(text, start, cursor.position);
    Cached cached = cache.get(section);
    if (cached == null) {
      cached = cache.put(section, SeriesPrefix.parse(text, start, cursor.position));
    }
    // a section that ran to the line's end may end in a lone backslash: only one ended by a space is reused
    last = cursor.atEnd() ? null : cached;
    return cached.prefix();
  }

  private void parseFields() {
    cursor.skipSpaces();
    if (cursor.atEnd()) {
      throw new IllegalArgumentException("missing fields");
    }
    while (true) {
      String key = fields.name(cursor, cache);
      if (key.isEmpty()) {
        throw new IllegalArgumentException("empty field key");
      }
      fields.hasElements |= key.charAt(key.length() - 1) == ']';
      if (!cursor.consume('=')) {
        throw new IllegalArgumentException("field '" + key + "' has no '=value'");
      }
      parseValue(key);
      if (!cursor.consume(',')) {
        return;
      }
    }
  }

  private void parseValue(String key) {
    if (cursor.peek() == '"') {
      fields.addText(key, cursor.readQuoted(key));
      return;
    }
    byte[] text = cursor.text;
    int from = cursor.position;
    cursor.skipRaw(',');
    int to = cursor.position;
    if (from == to) {
      throw new IllegalArgumentException("field '" + key + "' has no value");
    }
    byte last = text[to - 1];
    if (last == 'i' || last == 'u') {
      long value;
      try {
        value = last == 'i' ? ByteNumbers.parseLong(text, from, to - 1)
            : Long.parseUnsignedLong(ByteNumbers.ascii(text, from, to - 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("field '" + key + "': '" + raw(from, to) + "' is not a valid "
            + (last == 'i' ? "integer" : "unsigned integer"));
      }
      if (last == 'u' && value < 0) {
        throw new IllegalArgumentException("field '" + key + "': unsigned integer " + raw(from, to)
            + " exceeds the largest long series value (2^63-1)");
      }
      fields.addLong(key, value);
      return;
    }
    int bool = booleanValue(text, from, to);
    if (bool >= 0) {
      fields.addBoolean(key, bool == 1);
      return;
    }
    double value;
    try {
      value = ByteNumbers.parseDouble(text, from, to); // checks InfluxDB's float syntax as it reads
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("field '" + key + "': '" + raw(from, to) + "' is not a number");
    }
    fields.addDouble(key, value);
  }

  private String raw(int from, int to) {
    return new String(cursor.text, from, to - from, StandardCharsets.UTF_8);
  }

  private static final byte[][] TRUE = words("t", "T", "true", "True", "TRUE");
  private static final byte[][] FALSE = words("f", "F", "false", "False", "FALSE");

  private static byte[][] words(String... words) {
    byte[][] out = new byte[words.length][];
    for (int i = 0; i < words.length; i++) {
      out[i] = words[i].getBytes(StandardCharsets.US_ASCII);
    }
    return out;
  }

  /** 1 for InfluxDB's spellings of true, 0 for false, -1 for anything else. */
  private static int booleanValue(byte[] text, int from, int to) {
    byte first = text[from];
    if (to - from > 5 || (first != 't' && first != 'T' && first != 'f' && first != 'F')) {
      return -1;
    }
    for (byte[] word : first == 't' || first == 'T' ? TRUE : FALSE) {
      if (Arrays.equals(text, from, to, word, 0, word.length)) {
        return first == 't' || first == 'T' ? 1 : 0;
      }
    }
    return -1;
  }

  private long parseTimestamp() {
    cursor.skipSpaces();
    if (cursor.atEnd()) {
      return defaultTimestampNanos;
    }
    int from = cursor.position;
    cursor.skipRaw(' ');
    int to = cursor.position;
    cursor.skipSpaces();
    if (!cursor.atEnd()) {
      throw new IllegalArgumentException("unexpected text after the timestamp");
    }
    long value;
    try {
      value = ByteNumbers.parseLong(cursor.text, from, to);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("timestamp '" + raw(from, to) + "' is not an integer");
    }
    try {
      return precision.toNanos(value);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("timestamp " + raw(from, to) + " in " + precision.name().toLowerCase()
          + " lies outside the years 1677-2262 (wrong precision?)");
    }
  }

  private static String abbreviate(String line) {
    return line.length() <= 120 ? line : line.substring(0, 117) + "...";
  }

  /**
   * The fields of the current line, in reused arrays: a line is delivered only once all of it
   * parsed. Field names are remembered by position, so a run of lines with the same fields
   * decodes no name twice.
   */
  private static final class Fields {
    private static final int REMEMBERED = 64;
    private final byte[][] nameBytes = new byte[REMEMBERED][];
    private final String[] rememberedNames = new String[REMEMBERED];
    String[] names = new String[8];
    ValueType[] types = new ValueType[8];
    double[] values = new double[8];
    long[] longs = new long[8];
    String[] texts = new String[8];
    double[][] arrays = new double[8][];
    int count;
    /** Whether a field name of this line ends in ']': only then can it hold array elements. */
    boolean hasElements;

    void clear() {
      Arrays.fill(texts, 0, count, null);
      Arrays.fill(arrays, 0, count, null);
      count = 0;
      hasElements = false;
    }

    /** Replaces the fields {@code name[i]} of the line by one array field {@code name} each. */
    void collapseArrays() {
      ArrayFields elements = new ArrayFields();
      int kept = 0;
      for (int f = 0; f < count; f++) {
        if (!elements.take(names[f], types[f], types[f] == ValueType.LONG ? longs[f] : values[f])) {
          moveField(f, kept++);
        }
      }
      count = kept;
      for (Map.Entry<String, double[]> array : elements.arrays().entrySet()) {
        for (int f = 0; f < kept; f++) {
          if (names[f].equals(array.getKey())) {
            throw new IllegalArgumentException("field '" + array.getKey() + "' is given both as a value and as an array");
          }
        }
        int i = next(array.getKey(), ValueType.ARRAY);
        arrays[i] = array.getValue();
      }
    }

    private void moveField(int from, int to) {
      names[to] = names[from];
      types[to] = types[from];
      values[to] = values[from];
      longs[to] = longs[from];
      texts[to] = texts[from];
      arrays[to] = arrays[from];
    }

    /** The next field's name, up to its '=' (or the space or comma that makes it an error). */
    String name(LineCursor cursor, SeriesCache shared) {
      int from = cursor.position;
      int slot = count;
      if (slot < REMEMBERED && nameBytes[slot] != null) {
        int to = from + nameBytes[slot].length;
        if (to < cursor.end && cursor.text[to] == '=' && cursor.regionEquals(from, to, nameBytes[slot])
            && (to == from || cursor.text[to - 1] != '\\')) {
          cursor.position = to;
          return rememberedNames[slot];
        }
      }
      String name = shared.fieldName(cursor.readUntil('=', " ,", true));
      if (slot < REMEMBERED && cursor.position > from && cursor.text[cursor.position - 1] != '\\') {
        nameBytes[slot] = Arrays.copyOfRange(cursor.text, from, cursor.position);
        rememberedNames[slot] = name;
      }
      return name;
    }

    void addDouble(String name, double value) {
      int i = next(name, ValueType.DOUBLE);
      values[i] = value;
    }

    void addBoolean(String name, boolean value) {
      int i = next(name, ValueType.BOOLEAN);
      values[i] = value ? 1 : 0;
    }

    void addLong(String name, long value) {
      int i = next(name, ValueType.LONG);
      longs[i] = value;
    }

    void addText(String name, String value) {
      int i = next(name, ValueType.STRING);
      texts[i] = value;
    }

    private int next(String name, ValueType type) {
      if (count == names.length) {
        int capacity = count * 2;
        names = Arrays.copyOf(names, capacity);
        types = Arrays.copyOf(types, capacity);
        values = Arrays.copyOf(values, capacity);
        longs = Arrays.copyOf(longs, capacity);
        texts = Arrays.copyOf(texts, capacity);
        arrays = Arrays.copyOf(arrays, capacity);
      }
      names[count] = name;
      types[count] = type;
      return count++;
    }
  }
}
