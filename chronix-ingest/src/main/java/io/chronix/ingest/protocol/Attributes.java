package io.chronix.ingest.protocol;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.SeriesOrigin;
import java.util.Map;

/**
 * How a protocol's tag becomes a series attribute, the same for every protocol:
 *
 * <ul>
 *   <li>a tag named like a record field (name, type, start, end, data, id, count, min, max, sum,
 *       first, last) or starting with an underscore (the store's own fields) is stored as
 *       {@code tag_<key>}, so it cannot overwrite the record;
 *   <li>keys ending in {@code _l}, {@code _d} or {@code _b} are typed by the schema (long, double,
 *       boolean) and their values must parse as such; they are stored in canonical form.
 * </ul>
 */
public final class Attributes {

  /**
   * The attributes with the origin attributes of a protocol ({@link SeriesOrigin}), pairs of name
   * and value after the protocol; a pair without a value is left out. Already the key's own form
   * ({@link AttributeMap}): remote write makes a key for every series of every request.
   */
  public static AttributeMap withOrigin(Map<String, String> attributes, String protocol, String... more) {
    AttributeMap all = AttributeMap.of(attributes).with(SeriesOrigin.PROTOCOL, protocol);
    for (int i = 0; i + 1 < more.length; i += 2) {
      if (more[i + 1] != null && !more[i + 1].isEmpty()) {
        all = all.with(more[i], more[i + 1]);
      }
    }
    return all;
  }

  public static final String RESERVED_PREFIX = "tag_";

  private Attributes() {}

  public static String key(String tagKey) {
    if (tagKey.isEmpty()) {
      throw new IllegalArgumentException("empty tag key");
    }
    // an underscore is the store's: client tags never become its own fields (origin attributes)
    return RecordFields.isAttribute(tagKey) && !tagKey.startsWith("_") ? tagKey : RESERVED_PREFIX + tagKey;
  }

  /** @throws IllegalArgumentException when a typed key holds a value of another type */
  public static String value(String key, String value) {
    if (value.isEmpty()) {
      throw new IllegalArgumentException("tag '" + key + "' has an empty value");
    }
    try {
      if (key.endsWith("_l")) {
        return Long.toString(Long.parseLong(value));
      }
      if (key.endsWith("_d")) {
        return Double.toString(Double.parseDouble(value));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("tag '" + key + "' must hold a "
          + (key.endsWith("_l") ? "whole number" : "number") + " (keys ending in _l/_d are typed), not '" + value + "'");
    }
    if (key.endsWith("_b")) {
      if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
        return value.toLowerCase(java.util.Locale.ROOT);
      }
      throw new IllegalArgumentException("tag '" + key + "' must hold true or false (keys ending in _b are typed), not '" + value + "'");
    }
    return value;
  }
}
