package io.chronix.benchmarks.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.benchmarks.ChronixProcess;
import io.chronix.core.series.Points;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * Our server, started by the launcher with its defaults ({@link ChronixProcess}), queried through
 * the Chronix query handler: raw points with {@code fl=points}, the maximum and the analyses
 * with {@code cf=} next to the data.
 */
final class ChronixPeer extends LocalPeer {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChronixProcess process;

  private ChronixPeer(ChronixProcess process, Path dataDir) {
    super("Chronix", process.pid(), dataDir);
    this.process = process;
  }

  static ChronixPeer start(Path dataDir, Path log, String... settings) throws Exception {
    return new ChronixPeer(ChronixProcess.start(dataDir, log, settings), dataDir);
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
    Http.post(process.base().resolve("/flush"), "");
  }

  @Override
  public void stop() throws Exception {
    process.stop();
  }

  @Override
  public void close() throws Exception {
    process.close();
  }

  @Override
  public Points raw(SeriesRef series, long from, long to) throws Exception {
    JsonNode docs = query(series, from, to, "&fl=points");
    Points points = new Points();
    for (JsonNode doc : docs) {
      JsonNode data = doc.get("points");
      JsonNode timestamps = data.get("timestamps");
      JsonNode values = data.get("values");
      for (int i = 0; i < timestamps.size(); i++) {
        points.add(timestamps.get(i).asLong() * 1_000_000L, values.get(i).asDouble());
      }
    }
    return points;
  }

  @Override
  public double max(SeriesRef series, long from, long to) throws Exception {
    JsonNode docs = query(series, from, to, "&fl=name&cf=" + Http.encode("metric{max}"));
    return docs.isEmpty() ? Double.NaN : docs.get(0).at("/functions/0/value").asDouble();
  }

  @Override
  public boolean analysis(String function, SeriesRef series, long from, long to) throws Exception {
    JsonNode docs = query(series, from, to, "&fl=name&cf=" + Http.encode("metric{" + function + "}"));
    return !docs.isEmpty() && docs.get(0).at("/functions/0/matches").asBoolean();
  }

  private JsonNode query(SeriesRef series, long from, long to, String rest) throws Exception {
    StringBuilder q = new StringBuilder("name:").append(quoted(series.metric()));
    for (Map.Entry<String, String> tag : series.tags().entrySet()) {
      q.append(" AND ").append(tag.getKey()).append(':').append(quoted(tag.getValue()));
    }
    q.append(" AND start:").append(from).append(" AND end:").append(to);
    String body = Http.get(process.base().resolve("/solr/chronix/query?q=" + Http.encode(q.toString()) + rest));
    return JSON.readTree(body).at("/response/docs");
  }

  private static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
