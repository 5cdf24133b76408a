package io.chronix.ingest.protocol.influx;

import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.buffer.SeriesHandle;
import io.chronix.ingest.protocol.Attributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Measurement and attributes of a line, with the series of each field name it has seen: one
 * handle a series, which the write path's stages use to remember what they looked up for it.
 */
final class SeriesPrefix {

  private final String measurement;
  /** The tags with the protocol and measurement: every field's series adds only its field to them. */
  private final AttributeMap origin;
  /** Series of double fields, replaced as a whole when a field is added (rare; read by every line). */
  private volatile FieldSeries doubles = new FieldSeries(new String[0], new SeriesHandle[0]);
  /** Series of fields of other value types than double, which are rarer. */
  private final Map<String, SeriesHandle> typedKeys = new ConcurrentHashMap<>(4);

  private SeriesPrefix(String measurement, Map<String, String> attributes) {
    this.measurement = measurement;
    this.origin = Attributes.withOrigin(attributes, SeriesOrigin.INFLUX, SeriesOrigin.INFLUX_MEASUREMENT, measurement);
  }

  /** Parses the section {@code [from, to)} of the cursor's line (measurement and tags). */
  static SeriesPrefix parse(byte[] text, int from, int to) {
    LineCursor cursor = new LineCursor();
    cursor.reset(text, from, to);
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

  /**
   * The series of a field, the line's {@code position}-th: lines of a prefix mostly repeat their
   * fields in the same order, so the series at that place is the first tried.
   */
  SeriesHandle handle(String field, ValueType type, int position) {
    if (type != ValueType.DOUBLE) {
      return typedKeys.computeIfAbsent(type.typeName() + '\u0000' + field,
          k -> new SeriesHandle(new SeriesKey(name(field), type.typeName(), origin(field))));
    }
    SeriesHandle handle = doubles.find(field, position);
    return handle != null ? handle : addDouble(field);
  }

  private synchronized SeriesHandle addDouble(String field) {
    FieldSeries known = doubles;
    SeriesHandle handle = known.find(field, 0);
    if (handle == null) {
      handle = new SeriesHandle(SeriesKey.metric(name(field), origin(field)));
      doubles = known.with(field, handle);
    }
    return handle;
  }

  /**
   * Field names and their series in two arrays, never changed once published. With ten thousand
   * series a request, a hash map's table and entry were two cache misses a field; here the arrays
   * are touched once a line. Beyond a few fields a map finds those not at their usual place.
   */
  private static final class FieldSeries {
    private static final int SCANNED = 16;
    private final String[] names;
    private final SeriesHandle[] handles;
    private final Map<String, SeriesHandle> byName;

    FieldSeries(String[] names, SeriesHandle[] handles) {
      this.names = names;
      this.handles = handles;
      if (names.length > SCANNED) {
        byName = new java.util.HashMap<>();
        for (int i = 0; i < names.length; i++) {
          byName.put(names[i], handles[i]);
        }
      } else {
        byName = null;
      }
    }

    SeriesHandle find(String field, int position) {
      if (position < names.length && (names[position] == field || names[position].equals(field))) {
        return handles[position];
      }
      if (byName != null) {
        return byName.get(field);
      }
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(field)) {
          return handles[i];
        }
      }
      return null;
    }

    FieldSeries with(String field, SeriesHandle handle) {
      // arrays made by type, not by Arrays.copyOf: the quick compiler makes those by reflection,
      // and a new line's series each add a field
      String[] moreNames = new String[names.length + 1];
      SeriesHandle[] moreHandles = new SeriesHandle[handles.length + 1];
      System.arraycopy(names, 0, moreNames, 0, names.length);
      System.arraycopy(handles, 0, moreHandles, 0, handles.length);
      moreNames[names.length] = field;
      moreHandles[names.length] = handle;
      return new FieldSeries(moreNames, moreHandles);
    }
  }

  /** The tags plus what the series was written as: measurement and field. */
  private AttributeMap origin(String field) {
    return origin.with(SeriesOrigin.INFLUX_FIELD, field);
  }

  private String name(String field) {
    return field.equals("value") ? measurement : measurement + "_" + field;
  }
}
