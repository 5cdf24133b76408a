package io.chronix.ingest.protocol;

import io.chronix.ingest.http.JsonResponses;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServletResponse;

/**
 * The 400 a write endpoint answers when some items of a body were rejected and the rest stored,
 * in the protocol's own words (its clients parse them): InfluxDB's {@code partial write},
 * OpenTSDB's {@code failed}/{@code success}, Prometheus' series numbers. Every rejected item is
 * named by its 1-based position, at most {@value #MAX_REPORTED} of them.
 *
 * @param prefix leads the message ({@code "partial write: "} or nothing)
 * @param items what the body consists of, as counted ({@code "line(s)"})
 * @param item one of them, as named in the first error ({@code "line"})
 * @param itemKey the key of each error's position ({@code "line"})
 * @param rejectedKey the key of the rejected count
 * @param storedKey the key of the stored point count
 */
public record PartialWriteReport(String prefix, String items, String item, String itemKey, String rejectedKey,
    String storedKey) {

  static final int MAX_REPORTED = 100;

  public static final PartialWriteReport INFLUX =
      new PartialWriteReport("partial write: ", "line(s)", "line", "line", "rejected", "stored");
  public static final PartialWriteReport PROMETHEUS =
      new PartialWriteReport("partial write: ", "time series", "time series", "series", "rejected", "stored");
  public static final PartialWriteReport OPENTSDB = items("point");
  public static final PartialWriteReport COLLECTD = items("value_list");

  /** OpenTSDB's form, which collectd's endpoint shares: {@code failed} and {@code success}. */
  private static PartialWriteReport items(String key) {
    String words = key.replace('_', ' ');
    return new PartialWriteReport("", words + "(s)", words, key, "failed", "success");
  }

  void send(HttpServletResponse response, ParseResult result) throws IOException {
    List<LineError> rejected = result.errors();
    List<Map<String, Object>> errors = new ArrayList<>();
    for (LineError error : rejected.subList(0, Math.min(MAX_REPORTED, rejected.size()))) {
      errors.add(Map.of(itemKey, error.line(), "problem", error.problem()));
    }
    LineError first = rejected.get(0);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", prefix + rejected.size() + " " + items + " rejected, " + result.points()
        + " point(s) stored; first: " + item + " " + first.line() + ": " + first.problem());
    body.put(rejectedKey, rejected.size());
    body.put(storedKey, result.points());
    body.put("errors", errors);
    JsonResponses.send(response, 400, body);
  }
}
