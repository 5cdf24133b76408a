package io.chronix.benchmarks.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.core.series.Points;
import java.net.URI;
import java.util.Map;

/**
 * The Chronix query handler as the benchmarks ask it, at any address that serves
 * {@code /solr/chronix/query} (a single server's embedded node, an ingest node in SolrCloud mode):
 * raw points with {@code fl=points}, the maximum and the analyses with {@code cf=}.
 */
final class ChronixQueries {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;

  ChronixQueries(URI base) {
    this.base = base;
  }

  void ping() throws Exception {
    Http.get(base.resolve("/ping"));
  }

  Points raw(SeriesRef series, long from, long to) throws Exception {
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

  double max(SeriesRef series, long from, long to) throws Exception {
    JsonNode docs = query(series, from, to, "&fl=name&cf=" + Http.encode("metric{max}"));
    return docs.isEmpty() ? Double.NaN : docs.get(0).at("/functions/0/value").asDouble();
  }

  boolean analysis(String function, SeriesRef series, long from, long to) throws Exception {
    JsonNode docs = query(series, from, to, "&fl=name&cf=" + Http.encode("metric{" + function + "}"));
    return !docs.isEmpty() && docs.get(0).at("/functions/0/matches").asBoolean();
  }

  private JsonNode query(SeriesRef series, long from, long to, String rest) throws Exception {
    StringBuilder q = new StringBuilder("name:").append(quoted(series.metric()));
    for (Map.Entry<String, String> tag : series.tags().entrySet()) {
      q.append(" AND ").append(tag.getKey()).append(':').append(quoted(tag.getValue()));
    }
    q.append(" AND start:").append(from).append(" AND end:").append(to);
    String body = Http.get(base.resolve("/solr/chronix/query?q=" + Http.encode(q.toString()) + rest));
    return JSON.readTree(body).at("/response/docs");
  }

  private static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
