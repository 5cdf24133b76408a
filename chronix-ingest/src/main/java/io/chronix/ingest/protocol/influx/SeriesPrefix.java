package io.chronix.ingest.protocol.influx;

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
  private final Map<String, String> attributes;
  private final Map<String, SeriesHandle> keys = new ConcurrentHashMap<>(4);
  /** Series of fields of other value types than double, which are rarer. */
  private final Map<String, SeriesHandle> typedKeys = new ConcurrentHashMap<>(4);

  private SeriesPrefix(String measurement, Map<String, String> attributes) {
    this.measurement = measurement;
    this.attributes = attributes;
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

  SeriesHandle handle(String field, ValueType type) {
    if (type != ValueType.DOUBLE) {
      return typedKeys.computeIfAbsent(type.typeName() + '\u0000' + field,
          k -> new SeriesHandle(new SeriesKey(name(field), type.typeName(), origin(field))));
    }
    SeriesHandle handle = keys.get(field);
    if (handle == null) { // not computeIfAbsent: a lambda a point; putIfAbsent keeps one instance per key
      SeriesHandle fresh = new SeriesHandle(SeriesKey.metric(name(field), origin(field)));
      handle = keys.putIfAbsent(field, fresh);
      return handle == null ? fresh : handle;
    }
    return handle;
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
