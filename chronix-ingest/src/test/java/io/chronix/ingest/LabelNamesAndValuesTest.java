package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PromQL's series, label names and label values come from the store's columns (the plugin's
 * chronix.seriesFields, chronix.fieldNames and chronix.fieldValues), not from a listing of every
 * series' joined records: they must answer what that listing (chronix.keys) answers, buffered
 * series and the time range included, from doc values and, in a store without them, from stored
 * fields.
 */
class LabelNamesAndValuesTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;

  @Test
  void answerAsTheSeriesListingFromDocValues() throws Exception {
    assertAsTheListing();
  }

  @Test
  void answerAsTheSeriesListingFromStoredFields() throws Exception {
    SchemaBeforeDocValues.writeInto(dataDir);
    assertAsTheListing();
  }

  private void assertAsTheListing() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10")).start()) {
      StringBuilder stored = new StringBuilder();
      for (int s = 0; s < 40; s++) {
        String tags = ",host=h" + (s * 7) % 40 + ",dc=d" + s % 3 + (s % 4 == 0 ? "" : ",rack_l=" + s % 5)
            + (s % 5 == 0 ? ",start=early" : "");
        for (int i = 0; i < 25; i++) {
          stored.append(s % 2 == 0 ? "cpu" : "mem").append(tags).append(" value=").append(i).append(' ')
              .append(T0 + i * 1000L).append('\n');
        }
      }
      // a series a day later, outside the asked range
      stored.append("disk,host=late,zone=z9 value=1 ").append(T0 + 86_400_000L).append('\n');
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", stored.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      // buffered only: not flushed, found in the buffers
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "net,host=buffered,nic=eth0 value=3 " + (T0 + 5_000) + "\n", false).statusCode());

      // buffered points of series the records have, of a new host and of a new label: a listing
      // passes over the first unread, lists the others from their keys
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "cpu,host=h0,dc=d0,start=early value=9 " + (T0 + 30_000) + "\n"
              + "mem,host=newhost,dc=d1 value=1 " + (T0 + 6_000) + "\n"
              + "mem,host=h1,dc=d1,extra=e1 value=1 " + (T0 + 7_000) + "\n", false).statusCode());

      String range = "start=" + T0 / 1000 + "&end=" + (T0 / 1000 + 60);
      assertListingsAgree(server, range);
      // a buffered series with an attribute the schema stores as a number: listed from its record's document
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "cpu,host=typed,rack_l=08 value=1 " + (T0 + 8_000) + "\n", false).statusCode());
      assertListingsAgree(server, range);
      assertTrue(strings(server, "/api/v1/label/rack_l/values?" + range).contains("8"), "as its record stores it");
      assertTrue(strings(server, "/api/v1/label/host/values?" + range).containsAll(List.of("newhost", "typed")));
      assertTrue(strings(server, "/api/v1/labels?" + range).contains("extra"));
      List<String> all = strings(server, "/api/v1/labels?" + range);
      assertEquals(List.of("__name__", "dc", "extra", "host", "nic", "rack_l", "start"), all,
          "reserved names as labels, no zone");
      assertEquals(List.of("0", "1", "2", "3", "4", "8"), strings(server, "/api/v1/label/rack_l/values?" + range));
      assertTrue(strings(server, "/api/v1/label/host/values?" + range).contains("buffered"));
      assertEquals(List.of("late"), strings(server, "/api/v1/label/host/values?match[]=disk"));

      // a label that only the last of many matching records has (records sorted by start): the
      // column and the matches leapfrog, and that record is one of the matches
      long later = T0 + 7_200_000L;
      StringBuilder more = new StringBuilder();
      for (int s = 0; s < 30; s++) {
        more.append("io,host=h").append(s).append(" value=1 ").append(later + s).append('\n');
      }
      more.append("io,host=last,solo=x value=1 ").append(later + 1_000).append('\n');
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", more.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      String laterRange = "start=" + later / 1000 + "&end=" + (later / 1000 + 60);
      assertEquals(List.of("__name__", "host", "solo"), strings(server, "/api/v1/labels?" + laterRange));

      JsonNode refused = JSON.readTree(TestHttp.get(server.solrUrl() + "/chronix/query?q=*:*&chronix.fieldValues=data").body());
      assertEquals(400, refused.at("/error/code").asInt(), refused.toString());
      assertTrue(refused.at("/error/msg").asText().contains("'data' is a record field"), refused.toString());
    }
  }

  /** Series, label names and label values as the plugin's listing of joined records (chronix.keys) has them. */
  private static void assertListingsAgree(ChronixServer server, String range) throws Exception {
    for (String match : new String[] {"", "match[]=" + encode("{dc=\"d1\"}"), "match[]=" + encode("cpu")
        + "&match[]=" + encode("{host=\"buffered\"}")}) {
      String params = range + (match.isEmpty() ? "" : "&" + match);
      List<Map<String, String>> series = listing(server, params);
      assertEquals(series, keysListing(server, match, T0, T0 + 60_000), match);
      TreeSet<String> names = new TreeSet<>();
      series.forEach(labels -> names.addAll(labels.keySet()));
      assertEquals(new ArrayList<>(names), strings(server, "/api/v1/labels?" + params), match);
      for (String label : names) {
        TreeSet<String> values = new TreeSet<>();
        series.forEach(labels -> {
          if (labels.containsKey(label)) {
            values.add(labels.get(label));
          }
        });
        assertEquals(new ArrayList<>(values), strings(server, "/api/v1/label/" + label + "/values?" + params),
            label + " " + match);
      }
    }
  }

  private static List<Map<String, String>> listing(ChronixServer server, String params) throws Exception {
    String match = params.contains("match[]") ? "" : "&match[]=" + encode("{__name__=~\".+\"}");
    JsonNode data = JSON.readTree(TestHttp.get(server.baseUrl() + "/api/v1/series?" + params + match).body()).get("data");
    List<Map<String, String>> series = new ArrayList<>();
    for (JsonNode labels : data) {
      Map<String, String> map = new java.util.TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> label = it.next();
        map.put(label.getKey(), label.getValue().asText());
      }
      series.add(map);
    }
    assertTrue(series.size() > 1, params + ": " + data);
    return series;
  }

  /** The series as the plugin lists them from their joined records (chronix.keys), as label maps sorted as the API sorts them. */
  private static List<Map<String, String>> keysListing(ChronixServer server, String match, long from, long to)
      throws Exception {
    String selectors = "";
    for (String part : match.isEmpty() ? new String[0] : match.split("&")) {
      selectors += "&chronix.match=" + part.substring("match[]=".length());
    }
    String filter = selectors.isEmpty() ? "&fq=" + encode("-type:string") : selectors;
    JsonNode docs = TestHttp.query(server.solrUrl(), "start:" + from + " AND end:" + to,
        "&chronix.keys=true&cj=*&fl=*&rows=10000" + filter).at("/response/docs");
    List<Map<String, String>> series = new ArrayList<>();
    for (JsonNode doc : docs) {
      Map<String, String> labels = new java.util.TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        String name = field.getKey();
        if (name.equals("name")) {
          labels.put("__name__", field.getValue().asText());
        } else if (name.startsWith("tag_")) {
          labels.put(name.substring(4), field.getValue().asText());
        } else if (!List.of("type", "start", "end", "count", "id").contains(name) && !name.startsWith("_")) {
          labels.put(name, field.getValue().asText());
        }
      }
      series.add(labels);
    }
    // the API's order: label sets compared name by name, then value by value
    series.sort((a, b) -> {
      java.util.Iterator<Map.Entry<String, String>> x = a.entrySet().iterator();
      java.util.Iterator<Map.Entry<String, String>> y = b.entrySet().iterator();
      while (x.hasNext() && y.hasNext()) {
        Map.Entry<String, String> p = x.next();
        Map.Entry<String, String> q = y.next();
        int c = p.getKey().compareTo(q.getKey());
        if (c == 0) {
          c = p.getValue().compareTo(q.getValue());
        }
        if (c != 0) {
          return c;
        }
      }
      return Boolean.compare(x.hasNext(), y.hasNext());
    });
    return series;
  }

  private static List<String> strings(ChronixServer server, String path) throws Exception {
    JsonNode body = JSON.readTree(TestHttp.get(server.baseUrl() + path).body());
    assertEquals("success", body.get("status").asText(), path + ": " + body);
    return JSON.convertValue(body.get("data"), List.class);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
