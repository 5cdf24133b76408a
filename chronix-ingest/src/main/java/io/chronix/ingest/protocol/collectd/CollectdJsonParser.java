package io.chronix.ingest.protocol.collectd;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.ingest.protocol.JsonItems;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.WireNumbers;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The body collectd's write_http plugin sends with {@code Format "JSON"}: an array of value lists
 * such as
 * {@code {"values":[1901474177],"dstypes":["counter"],"dsnames":["value"],"time":1280959128.120,
 * "interval":10,"host":"leeloo.octo.it","plugin":"cpu","plugin_instance":"0","type":"cpu","type_instance":"idle"}}.
 *
 * <p>Each data source of a value list is one point of the series named
 * <pre>plugin "." type ["." type_instance] ["." dsname]</pre>
 * where the type instance is left out when empty and the data source name when it is
 * {@code value}, the name collectd gives the only source of most types: {@code cpu.cpu.idle},
 * {@code load.load.shortterm}, {@code interface.if_octets.rx}, {@code memory.memory.used}. The
 * attributes are {@code host} and, when not empty, {@code plugin_instance} ({@link Attributes}),
 * so that the CPUs, disks or interfaces of one host are series of the same name.
 *
 * <p>{@code time} is epoch seconds with a fraction; 0 or absent means now, as for collectd's own
 * plugins. Counters, derives and gauges alike are stored as the number sent (no rates are
 * computed); integers beyond 2^53 are rejected. A {@code null} value is how collectd sends NaN
 * (e.g. a gauge not yet known) and is skipped without error. A value list with any other problem,
 * such as arrays of different lengths, stores none of its points and is reported by its 1-based
 * position ({@link LineError#line()}); the other value lists are stored.
 */
public final class CollectdJsonParser {

  private final LongSupplier clockNanos;

  /** @param clockNanos epoch nanoseconds for value lists without a time */
  public CollectdJsonParser(LongSupplier clockNanos) {
    this.clockNanos = clockNanos;
  }

  /**
   * @throws MalformedBodyException when the body is not a JSON array (or object); the sink may
   *     have received points before and must be discarded
   */
  public ParseResult parse(String body, PointSink sink) throws IOException, MalformedBodyException {
    List<LineError> errors = new ArrayList<>();
    List<Point> points = new ArrayList<>();
    long[] stored = {0};
    JsonItems.forEach(body, (index, item) -> {
      points.clear();
      try {
        valueList(item, points);
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(index, e.getMessage()));
        return;
      }
      for (Point point : points) {
        sink.accept(point.key, point.timestamp, point.value);
      }
      stored[0] += points.size();
    });
    return new ParseResult(stored[0], errors);
  }

  private record Point(SeriesKey key, long timestamp, double value) {}

  private void valueList(JsonNode list, List<Point> points) {
    if (!list.isObject()) {
      throw new IllegalArgumentException("expected a value list (JSON object), not " + JsonItems.describe(list));
    }
    String host = text(list, "host", true);
    String plugin = text(list, "plugin", true);
    String pluginInstance = text(list, "plugin_instance", false);
    String type = text(list, "type", true);
    String typeInstance = text(list, "type_instance", false);
    String identifier = host + "/" + plugin + (pluginInstance.isEmpty() ? "" : "-" + pluginInstance)
        + "/" + type + (typeInstance.isEmpty() ? "" : "-" + typeInstance);
    try {
      JsonNode values = array(list, "values", true);
      JsonNode names = array(list, "dsnames", true);
      JsonNode types = array(list, "dstypes", false);
      if (names.size() != values.size() || (types != null && types.size() != values.size())) {
        throw new IllegalArgumentException("\"values\", \"dsnames\" and \"dstypes\" differ in length ("
            + values.size() + ", " + names.size() + ", " + (types == null ? "absent" : types.size()) + ")");
      }
      long timestamp = time(list.get("time"));
      Map<String, String> attributes = new TreeMap<>();
      attribute(attributes, "host", host);
      if (!pluginInstance.isEmpty()) {
        attribute(attributes, "plugin_instance", pluginInstance);
      }
      String prefix = plugin + "." + type + (typeInstance.isEmpty() ? "" : "." + typeInstance);
      for (int i = 0; i < values.size(); i++) {
        JsonNode name = names.get(i);
        if (!name.isTextual() || name.textValue().isEmpty()) {
          throw new IllegalArgumentException("dsnames[" + i + "] is not a non-empty string");
        }
        String dsname = name.textValue();
        JsonNode value = values.get(i);
        if (value.isNull()) {
          continue;
        }
        double number = JsonItems.number(value, "value of '" + dsname + "'", false);
        String series = dsname.equals("value") ? prefix : prefix + "." + dsname;
        Map<String, String> origin = Attributes.withOrigin(attributes, SeriesOrigin.COLLECTD,
            SeriesOrigin.COLLECTD_PLUGIN, plugin, SeriesOrigin.COLLECTD_TYPE, type,
            SeriesOrigin.COLLECTD_TYPE_INSTANCE, typeInstance, SeriesOrigin.COLLECTD_DSNAME, dsname);
        points.add(new Point(SeriesKey.metric(series, origin), timestamp, number));
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(identifier + ": " + e.getMessage());
    }
  }

  private static String text(JsonNode list, String field, boolean required) {
    JsonNode node = list.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        throw new IllegalArgumentException("\"" + field + "\" is missing");
      }
      return "";
    }
    if (!node.isTextual()) {
      throw new IllegalArgumentException("\"" + field + "\" must be a string, not " + JsonItems.describe(node));
    }
    if (required && node.textValue().isEmpty()) {
      throw new IllegalArgumentException("\"" + field + "\" is empty");
    }
    return node.textValue();
  }

  private static JsonNode array(JsonNode list, String field, boolean required) {
    JsonNode node = list.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        throw new IllegalArgumentException("\"" + field + "\" is missing");
      }
      return null;
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException("\"" + field + "\" must be an array, not " + JsonItems.describe(node));
    }
    return node;
  }

  private long time(JsonNode time) {
    if (time == null || time.isNull()) {
      return clockNanos.getAsLong();
    }
    if (!time.isNumber()) {
      throw new IllegalArgumentException("\"time\" must be a number, not " + JsonItems.describe(time));
    }
    BigDecimal seconds = time.decimalValue();
    return seconds.signum() == 0 ? clockNanos.getAsLong() : WireNumbers.nanos(seconds, 9, "time");
  }

  private static void attribute(Map<String, String> attributes, String field, String value) {
    String key = Attributes.key(field);
    attributes.put(key, Attributes.value(key, value));
  }
}
