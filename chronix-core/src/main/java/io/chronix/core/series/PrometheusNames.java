package io.chronix.core.series;

import io.chronix.core.record.RecordFields;

/**
 * How a series appears to PromQL and Prometheus' APIs, and back (docs/promql.md):
 *
 * <ul>
 *   <li>the series name is {@code __name__}, exactly as stored (Prometheus 3 allows any UTF-8;
 *       select dotted names with {@code {"a.b.c"}} or {@code {__name__="a.b.c"}});
 *   <li>each attribute is a label, except the origin attributes ({@link SeriesOrigin});
 *       an attribute stored as {@code tag_<key>} because its key is a record field or starts with
 *       an underscore shows as label {@code <key>} again;
 *   <li>a label name that is not a valid Prometheus label name ({@code [a-zA-Z_][a-zA-Z0-9_]*})
 *       is escaped in API answers as Prometheus' "values" escaping does: {@code host.name}
 *       becomes {@code U__host_2e_name}; in a query both spellings select the attribute.
 * </ul>
 *
 * <p>Inside the engine labels carry their raw names; escaping is for what leaves the server.
 */
public final class PrometheusNames {

  public static final String METRIC_NAME = "__name__";
  private static final String ESCAPED_PREFIX = "U__";
  private static final String TAG_PREFIX = "tag_";

  private PrometheusNames() {}

  /** The (raw, unescaped) label an attribute field shows as, or null when it is not a label. */
  public static String labelOf(String field) {
    if (!RecordFields.isAttribute(field) || SeriesOrigin.isOrigin(field)) {
      return null;
    }
    String key = field;
    if (field.startsWith(TAG_PREFIX)) {
      String original = field.substring(TAG_PREFIX.length());
      if (RecordFields.RESERVED.contains(original) || original.startsWith("_")) {
        key = original;
      }
    }
    return key;
  }

  /** The record field a label selects: {@code name} for {@code __name__}, else the attribute. */
  public static String fieldOf(String label) {
    if (label.equals(METRIC_NAME)) {
      return RecordFields.NAME;
    }
    String key = unescape(label);
    if (RecordFields.RESERVED.contains(key) || key.startsWith("_")) {
      return TAG_PREFIX + key;
    }
    return key;
  }

  public static boolean isValidLabelName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!isLegacyChar(name.charAt(i), i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLegacyChar(int c, int index) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (index > 0 && c >= '0' && c <= '9');
  }

  /** Prometheus' "values" escaping of a name that is not a valid label name; valid names stay. */
  public static String escape(String name) {
    if (isValidLabelName(name)) {
      return name;
    }
    StringBuilder out = new StringBuilder(ESCAPED_PREFIX);
    int index = 0;
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      if (c == '_') {
        out.append("__");
      } else if (isLegacyChar(c, index)) {
        out.appendCodePoint(c);
      } else {
        out.append('_').append(Integer.toHexString(c)).append('_');
      }
      i += Character.charCount(c);
      index++;
    }
    return out.toString();
  }

  /** The inverse of {@link #escape}; a name that is not an escaped one comes back unchanged. */
  public static String unescape(String name) {
    if (!name.startsWith(ESCAPED_PREFIX)) {
      return name;
    }
    String body = name.substring(ESCAPED_PREFIX.length());
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < body.length()) {
      char c = body.charAt(i);
      if (c == '_') {
        if (i + 1 < body.length() && body.charAt(i + 1) == '_') {
          out.append('_');
          i += 2;
          continue;
        }
        int end = body.indexOf('_', i + 1);
        if (end < 0 || end == i + 1) {
          return name;
        }
        try {
          int code = Integer.parseInt(body.substring(i + 1, end), 16);
          if (!Character.isValidCodePoint(code)) {
            return name;
          }
          out.appendCodePoint(code);
        } catch (NumberFormatException e) {
          return name;
        }
        i = end + 1;
      } else if (isLegacyChar(c, 1)) {
        out.append(c);
        i++;
      } else {
        return name;
      }
    }
    return out.toString();
  }
}
