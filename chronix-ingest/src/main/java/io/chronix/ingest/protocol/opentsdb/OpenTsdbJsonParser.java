package io.chronix.ingest.protocol.opentsdb;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.ingest.protocol.JsonItems;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The body of OpenTSDB's {@code POST /api/put}: one data point or an array of them, each
 * {@code {"metric": "sys.cpu.user", "timestamp": 1346846400, "value": 18, "tags": {"host": "web01"}}}.
 * The metric is the series name, the tags its attributes; the timestamp follows {@link
 * OpenTsdbTimestamps} (a number or a numeric string); the value is a number or a numeric string.
 *
 * <p>Partial writes: the valid points are stored and each invalid one is reported by its 1-based
 * position ({@link LineError#line()} is that position), the semantics of this server's line
 * protocol endpoint, and what OpenTSDB 2.x does too (it answers 400 naming the failed points
 * when asked for details; here the details are always given). A body that is not JSON at all
 * stores nothing.
 *
 * <p>Differences from OpenTSDB: points without tags are accepted (a series needs none here); a
 * point without a timestamp gets the server's clock, as lines without one do in the line
 * protocol.
 */
public final class OpenTsdbJsonParser {

  private final LongSupplier clockNanos;

  /** @param clockNanos epoch nanoseconds for points without a timestamp */
  public OpenTsdbJsonParser(LongSupplier clockNanos) {
    this.clockNanos = clockNanos;
  }

  /**
   * @throws MalformedBodyException when the body is not a JSON object or array; the sink may have
   *     received points before and must be discarded
   */
  public ParseResult parse(String body, PointSink sink) throws IOException, MalformedBodyException {
    List<LineError> errors = new ArrayList<>();
    long[] points = {0};
    JsonItems.forEach(body, (index, item) -> {
      Point point;
      try {
        point = point(item);
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(index, e.getMessage()));
        return;
      }
      sink.accept(point.key, point.timestamp, point.value);
      points[0]++;
    });
    return new ParseResult(points[0], errors);
  }

  private record Point(SeriesKey key, long timestamp, double value) {}

  private Point point(JsonNode item) {
    if (!item.isObject()) {
      throw new IllegalArgumentException("expected a JSON object, not " + JsonItems.describe(item));
    }
    JsonNode metric = item.get("metric");
    if (metric == null || !metric.isTextual() || metric.textValue().isBlank()) {
      throw new IllegalArgumentException("\"metric\" is missing or not a non-empty string");
    }
    String name = metric.textValue();
    try {
      long timestamp = timestamp(item.get("timestamp"));
      JsonNode value = item.get("value");
      if (value == null || value.isNull()) {
        throw new IllegalArgumentException("\"value\" is missing");
      }
      double number = JsonItems.number(value, "value", true);
      return new Point(SeriesKey.metric(name, Attributes.withOrigin(tags(item.get("tags")), SeriesOrigin.OPENTSDB)),
          timestamp, number);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("metric '" + name + "': " + e.getMessage());
    }
  }

  private long timestamp(JsonNode timestamp) {
    if (timestamp == null || timestamp.isNull()) {
      return clockNanos.getAsLong();
    }
    if (timestamp.isNumber()) {
      return OpenTsdbTimestamps.nanos(timestamp.decimalValue());
    }
    if (timestamp.isTextual()) {
      return OpenTsdbTimestamps.nanos(timestamp.textValue());
    }
    throw new IllegalArgumentException("\"timestamp\" must be a number, not " + JsonItems.describe(timestamp));
  }

  private static Map<String, String> tags(JsonNode tags) {
    Map<String, String> attributes = new TreeMap<>();
    if (tags == null || tags.isNull()) {
      return attributes;
    }
    if (!tags.isObject()) {
      throw new IllegalArgumentException("\"tags\" must be an object, not " + JsonItems.describe(tags));
    }
    for (Map.Entry<String, JsonNode> tag : tags.properties()) {
      JsonNode value = tag.getValue();
      // OpenTSDB reads tag values as strings and so takes numbers too
      if (!value.isTextual() && !value.isNumber()) {
        throw new IllegalArgumentException("tag '" + tag.getKey() + "' must be a string, not " + JsonItems.describe(value));
      }
      OpenTsdbTags.put(attributes, tag.getKey(), value.asText());
    }
    return attributes;
  }
}
