package io.chronix.benchmarks.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.benchmarks.VictoriaMetricsProcess;
import io.chronix.core.series.Points;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * VictoriaMetrics (Debian package) as a peer: raw points through {@code /api/v1/export}, the
 * maximum through MetricsQL {@code max_over_time} at the range's end. Line protocol names a series
 * {@code <measurement>_<field>}, so ours {@code m} with field {@code value} is {@code m_value}.
 */
final class VictoriaMetricsPeer extends LocalPeer {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final VictoriaMetricsProcess process;

  private VictoriaMetricsPeer(VictoriaMetricsProcess process, Path dataDir) {
    super("VictoriaMetrics", process.pid(), dataDir);
    this.process = process;
  }

  static VictoriaMetricsPeer start(String binary, Path dataDir, Path log) throws Exception {
    return new VictoriaMetricsPeer(VictoriaMetricsProcess.start(binary, dataDir, log), dataDir);
  }




  @Override
  public URI lineProtocolWrite() {
    return process.base().resolve("/write");
  }

  @Override
  public URI remoteWrite() {
    return process.base().resolve("/api/v1/write");
  }

  @Override
  public void flush() throws Exception {
    Http.get(process.base().resolve("/internal/force_flush"));
  }

  @Override
  public void stop() throws Exception {
    process.stop();
  }

  @Override
  public void close() throws Exception {
    process.kill();
  }

  @Override
  public void ping() throws Exception {
    Http.get(process.base().resolve("/health"));
  }

  @Override
  public Points raw(SeriesRef series, long from, long to) throws Exception {
    String body = Http.get(process.base().resolve("/api/v1/export?match[]=" + Http.encode(selector(series))
        + "&start=" + seconds(from) + "&end=" + seconds(to)));
    Points points = new Points();
    for (String line : body.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode row = JSON.readTree(line);
      JsonNode timestamps = row.get("timestamps");
      JsonNode values = row.get("values");
      for (int i = 0; i < timestamps.size(); i++) {
        points.add(timestamps.get(i).asLong() * 1_000_000L, values.get(i).asDouble());
      }
    }
    points.sortAndDeduplicate(); // a series may come in several blocks
    return points;
  }

  @Override
  public double max(SeriesRef series, long from, long to) throws Exception {
    // the window (end - d, end] excludes its start: one millisecond more takes the range's first point in
    String query = "max_over_time(" + selector(series) + "[" + (to - from + 1) + "ms])";
    JsonNode answer = JSON.readTree(Http.get(process.base().resolve("/api/v1/query?query=" + Http.encode(query)
        + "&time=" + seconds(to))));
    JsonNode result = answer.at("/data/result");
    return result.isEmpty() ? Double.NaN : result.get(0).get("value").get(1).asDouble();
  }

  private static String selector(SeriesRef series) {
    StringBuilder out = new StringBuilder("{__name__=\"").append(escape(series.metric() + "_value")).append('"');
    for (Map.Entry<String, String> tag : series.tags().entrySet()) {
      out.append(',').append(tag.getKey()).append("=\"").append(escape(tag.getValue())).append('"');
    }
    return out.append('}').toString();
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static String seconds(long millis) {
    return String.format("%d.%03d", millis / 1000, millis % 1000);
  }
}
